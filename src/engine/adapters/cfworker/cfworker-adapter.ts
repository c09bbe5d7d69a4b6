// The only module that imports @cfworker/json-schema (docs/architecture.md#layers).
import { dereference, format, type OutputUnit, type SchemaDraft, schemaMapKeyword, validate } from '@cfworker/json-schema';
import type { Dialect } from '../../../protocol/dialect.ts';
import type { Refused } from '../../../protocol/outcome.ts';
import { formFormatCheckers } from '../../forms/form-formats.ts';
import { createJsonObject } from '../../json/copy-json.ts';
import { hasPatternKeys } from '../../schema/pattern-keys.ts';
import { type SubschemaKeyword, subschemaKeywords } from '../../schema/schema-keywords.ts';
import { isFalseSchema } from '../../schema/schema-types.ts';
import type {
  AdapterCompileInput,
  CompiledAdapterSchema,
  LeafFailure,
  SchemaNode,
  SchemaValidatorAdapter,
} from '../../schema/schema-validator-adapter.ts';
import { cfworkerAdapterId } from './adapter-id.ts';
import { cfworkerChecks } from './cfworker-checks.ts';
import { collectLeafFailures } from './collect-leaf-failures.ts';
import { withLinearPatterns } from './linear-regexp-scope.ts';
import { type RefusedTypes, refusedTypes, refusesAtRoot, rootTypeLeaf } from './root-type-gate.ts';
import { standInUnits } from './stand-in-units.ts';

/** The draft cfworker validates each dialect as. */
export const cfworkerDrafts: Readonly<Record<Dialect, SchemaDraft>> = {
  '2020-12': '2020-12',
  '2019-09': '2019-09',
  'draft-07': '7',
  'draft-06': '7',
  'draft-04': '4',
};

/**
 * Creates the default adapter: @cfworker/json-schema, eval-free, so it runs in Workers and strict-CSP pages.
 * Importing this module changes nothing; creating the adapter adds the elicitation form formats to cfworker's
 * format table (once), under names of its own, so the library's own formats stay as they are for others.
 */
export function createCfworkerAdapter(): SchemaValidatorAdapter {
  installFormFormats();
  return { id: cfworkerAdapterId, check: cfworkerChecks, compile: compileWithCfworker };
}

let formatsInstalled = false;

function installFormFormats(): void {
  if (formatsInstalled) return;
  for (const [name, check] of Object.entries(formFormatCheckers)) format[name] = check;
  formatsInstalled = true;
}

function compileWithCfworker(input: AdapterCompileInput): ReturnType<SchemaValidatorAdapter['compile']> {
  const { schema, dialect } = input;
  // cfworker resolves a missing or relative root id against self.location; pin the absolute URI the engine used.
  if (typeof schema === 'object') schema.$id = input.base;
  const lookup = lookupOf(schema, input);
  if (lookup === undefined) return refuse('invalid_schema', 'the validator could not index this schema (conflicting identifiers)');
  // cfworker also files an embedded resource's $anchor under the outer base, overwriting a real anchor of the
  // same name there (JSON-Schema-Test-Suite "order of evaluation: $id and $anchor and $ref"). Put them back.
  for (const [uri, node] of input.anchors) lookup[uri] = node;
  const refTargets = input.refTargets ?? new Map<SchemaNode, SchemaNode | boolean>();
  pinMissedRefs(lookup, refTargets, (node) => node);
  for (const node of input.refNodes) {
    const uri = (node as { __absolute_ref__?: string }).__absolute_ref__;
    if (uri === undefined || lookup[uri] === undefined) {
      return refuse('unresolved_ref', `the validator cannot resolve "$ref": ${JSON.stringify(String(node.$ref))}`);
    }
  }
  const draft = cfworkerDrafts[dialect];
  // cfworker runs `pattern`/`patternProperties` with `new RegExp`; inside this scope that is the linear matcher.
  const patterns = input.patternKeys ?? hasPatternKeys(schema);
  const walk = (instance: unknown, root: unknown, lookup: unknown, shortCircuit: boolean): ReturnType<typeof validate> => {
    const schema = root as Parameters<typeof validate>[1];
    const refs = lookup as Parameters<typeof validate>[3];
    if (shortCircuit) walkCounts.short++;
    else walkCounts.full++;
    if (!patterns) return validate(instance, schema, draft, refs, shortCircuit);
    return withLinearPatterns(() => validate(instance, schema, draft, refs, shortCircuit));
  };
  // Prepared on the first validation, not here: many compiled tools are never called, and most have no `false`
  // to twin.
  let plain: Prepared | undefined;
  let unique: Prepared | undefined;
  let refused: RefusedTypes | undefined;
  const compiled: CompiledAdapterSchema = {
    validate(instance, options = {}) {
      // A root whose `type` alone refuses the instance: cfworker's one unit, without the walk.
      refused ??= refusedTypes(schema);
      if (refused !== 0 && refusesAtRoot(refused, instance)) return [rootTypeLeaf(schema as SchemaNode)];
      plain ??= { root: schema, lookup, flat: isFlat(schema, subschemaKeywords(dialect), lookup) };
      // cfworker compares items pairwise; when the engine has already hashed every array and found no duplicate,
      // a copy without `uniqueItems: true` gives the same verdict in linear time.
      if (options.uniqueItemsHold === true) unique ??= withoutUniqueItems(plain, dialect, input, refTargets);
      const use = options.uniqueItemsHold === true ? (unique ?? plain) : plain;
      use.twin ??= withFastTwin(use);
      const twin = use.twin;
      const { fast, fastLookup, itemsArrays } = twin;
      // Short-circuiting stops at the first failure: as exact a verdict, far cheaper. Only an invalid instance
      // is walked again in full, for its issues, unless the short walk already wrote what the full one would.
      // A flat schema is walked once, in full: the verdict and, for an invalid instance, its units.
      let short: readonly OutputUnit[] | undefined;
      if (!use.flat) {
        const result = walk(instance, fast, fastLookup, true);
        if (result.valid) return [];
        short = result.errors;
      }
      let units: readonly OutputUnit[];
      let complete = true;
      if (short !== undefined && writesAll(short)) units = short;
      else {
        try {
          // The twin in full, its `false` units placed as the stand-ins' would be; where one cannot be placed,
          // the engine's copy in full (the same verdict), and from then on the copy alone.
          const result = twin.placing ? walk(instance, fast, fastLookup, false) : walk(instance, use.root, use.lookup, false);
          if (result.valid) return use.flat ? [] : [reason];
          const placed = !twin.placing || fast === use.root ? result.errors : standInUnits(result.errors, itemsArrays);
          if (placed !== undefined) units = placed;
          else {
            twin.placing = false;
            const again = walk(instance, use.root, use.lookup, false);
            if (again.valid) return [reason];
            units = again.errors;
          }
        } catch (error) {
          // The full walk spreads every subresult into its parent's list (`push(...errors)`), which overflows the
          // stack on large outputs. A short-circuiting walk keeps one failing path per level: at least the first
          // failure, and an issue saying the list is incomplete. If that overflows too, the engine reports it.
          if (!(error instanceof RangeError)) throw error;
          const result = walk(instance, use.root, use.lookup, true);
          // Only a flat schema's instance may be valid here: its one walk was the full one that overflowed.
          if (result.valid) return use.flat ? [] : [reason];
          units = result.errors;
          complete = false;
        }
      }
      const limit = Math.max(1, options.maxFailures ?? Number.POSITIVE_INFINITY);
      const collected = collectLeafFailures(units, { root: use.root, lookup: use.lookup, instance, limit });
      const leaves: LeafFailure[] = collected.leaves;
      if (!complete) leaves.push(marker('incomplete'));
      else if (!collected.complete) leaves.push(marker('maxIssues'));
      // Never report "invalid" without a reason.
      return leaves.length > 0 ? leaves : [reason];
    },
  };
  return { status: 'accepted', compiled };
}

/**
 * Units that only a walk that stopped early, or that met a plain `false`, writes. cfworker's short-circuit differs
 * from its full walk in one thing: a property or item that fails ends its loop (`stop`), and the keywords after it
 * are skipped. Each such failure writes its loop's unit (`properties`, `items`, …) beside its own; a walk that
 * wrote none never stopped where its output is kept (a discarded `anyOf` alternative, `not` or `if` keeps neither
 * its units nor what it evaluated, and its verdict is the same either way). The twin's plain `false` writes a
 * `false` unit where the engine's `{"not": true}` stand-in writes `not`; only a full walk's are placed.
 */
const stopUnits = new Set(['properties', 'patternProperties', 'additionalProperties', 'prefixItems', 'items', 'additionalItems', 'false']);

/** Whether the short walk's units are exactly those the full walk of the engine's copy writes. */
function writesAll(units: readonly OutputUnit[]): boolean {
  for (const unit of units) if (stopUnits.has(unit.keyword)) return false;
  return true;
}

/**
 * Keywords under which cfworker may see a subschema fail while the instance still passes: an `anyOf`/`oneOf`
 * alternative, `not`'s subschema, an `if` condition, an item `contains` does not match. Everywhere else a failure
 * fails the instance.
 */
const discarding = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains']);

/**
 * A schema none of whose applied subschemas holds a key of `discarding`. Either walk gives the same verdict; this
 * only chooses the cheaper. On a valid instance no subschema of a flat schema fails, so no loop stops early and no
 * `false` is met: the full walk of the engine's copy does exactly the short-circuit walk's work, and gives the units
 * of an invalid one at no extra cost. Elsewhere failing alternatives make the short walk on the twin cheaper.
 *
 * Only what cfworker can apply is read: from the root through the dialect's subschema keywords and each `$ref`'s
 * target in `lookup`, never into `$defs`/`definitions` themselves (a definition no reference reaches is never
 * applied; many tool schemas carry a library of them). Any other key counts where it stands, a property's own
 * schema included; property names and `const`/`enum` values are data. A reference the lookup cannot answer, or a
 * `$recursiveRef` (its target depends on the walk), makes the schema not flat. The `{"not": true}` stand-ins are
 * not read: their `not` is the failure.
 */
function isFlat(root: unknown, keywords: Readonly<Record<string, SubschemaKeyword>>, lookup: Record<string, unknown>): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  const push = (value: unknown): void => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) pending.push(value);
  };
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    if (typeof node !== 'object' || node === null || isFalseSchema(node) || seen.has(node)) continue;
    seen.add(node);
    for (const key of Object.keys(node)) {
      if (discarding.has(key) || key === '$recursiveRef') return false;
      const keyword = keywords[key];
      const value = node[key];
      if (keyword === undefined || keyword.container === true || typeof value !== 'object' || value === null) continue;
      if (Array.isArray(value)) {
        if (keyword.shape === 'array' || keyword.shape === 'schemaOrArray') for (const item of value) push(item);
      } else if (keyword.shape === 'map' || keyword.shape === 'dependencies') {
        for (const name of Object.keys(value)) push((value as Record<string, unknown>)[name]);
      } else push(value);
    }
    if (Object.hasOwn(node, '$ref')) {
      const target = lookup[String((node as { __absolute_ref__?: unknown }).__absolute_ref__)];
      if (target === undefined) return false;
      push(target);
    }
  }
  return true;
}

/**
 * Counts for tests: plain-false twins copied (compile copies none), and walks of each kind (a flat schema is walked
 * once, in full; a `false` the twin cannot place costs a second full walk).
 */
export const walkCounts = { twins: 0, short: 0, full: 0 };

const marker = (keyword: string): LeafFailure => ({ instancePath: [], keyword, schema: {}, schemaPath: [] });
const reason = marker('schema');

/** A schema as cfworker validates it: the engine's copy (or one without `uniqueItems`) and what it takes. */
interface Prepared {
  readonly root: SchemaNode | boolean;
  readonly lookup: Record<string, unknown>;
  /** See `isFlat`: one full walk instead of a short one and a full one. */
  readonly flat: boolean;
  /** The plain-false twin, made by the first validation. */
  twin?: Twin;
}

/** `root`'s plain-false twin and its lookup. */
interface Twin {
  readonly fast: unknown;
  readonly fastLookup: Record<string, unknown>;
  /** Some `items` holds an array: a `false` under `items` cannot be placed from its unit (stand-in-units.ts). */
  readonly itemsArrays: boolean;
  /** False once a full walk of the twin had a `false` it could not place: the schema has one where it cannot. */
  placing: boolean;
}

/**
 * The twin: `false` is `false` again there, which cfworker answers at once, whereas the `{"not": true}` stand-in
 * (kept for well-located issues) costs one more subschema visit each time. Only the objects above a stand-in are
 * copied; the rest, and the lookup's other entries (through its prototype), are shared with `use`, so a schema
 * without `false` is its own twin and one with a few costs a few objects more.
 */
function withFastTwin(use: Prepared): Twin {
  const twins = new Map<object, object>();
  const found = { itemsArrays: false };
  const fast = withPlainFalse(use.root, twins, found);
  if (fast === use.root) return { fast, fastLookup: use.lookup, itemsArrays: found.itemsArrays, placing: true };
  walkCounts.twins++;
  // The engine's lookup has no prototype; every URI it files a copied object or a stand-in under is filed again.
  const fastLookup = Object.create(use.lookup) as Record<string, unknown>;
  for (const uri in use.lookup) {
    const node = use.lookup[uri];
    if (typeof node !== 'object' || node === null) continue;
    if (isFalseSchema(node)) fastLookup[uri] = false;
    else {
      const twin = twins.get(node);
      if (twin !== undefined) fastLookup[uri] = twin;
    }
  }
  return { fast, fastLookup, itemsArrays: found.itemsArrays, placing: true };
}

/** The prepared schema again without `uniqueItems: true`, or the same one when it has none. */
function withoutUniqueItems(
  plain: Prepared,
  dialect: Dialect,
  input: AdapterCompileInput,
  refTargets: ReadonlyMap<SchemaNode, SchemaNode | boolean>,
): Prepared {
  const twins = new Map<object, object>();
  const found = { uniqueItems: false };
  const root = dropUniqueItems(plain.root, subschemaKeywords(dialect), twins, found) as SchemaNode | boolean;
  if (!found.uniqueItems) return plain;
  const lookup = lookupOf(root, input);
  if (lookup === undefined) return plain;
  const mapped = (node: SchemaNode): object => twins.get(node) ?? node;
  for (const [uri, node] of input.anchors) lookup[uri] = mapped(node);
  pinMissedRefs(lookup, refTargets, mapped);
  // Dropping `uniqueItems` adds no keyword that may discard a failure.
  return { root, lookup, flat: plain.flat };
}

/**
 * cfworker's table from URIs to subschemas, or undefined when its indexer throws (conflicting identifiers). cfworker
 * reads the table only to resolve a `$ref` or `$recursiveRef`: for a schema that holds neither, as most tool schemas,
 * an empty one gives the same verdicts, without a pointer string and a property stamp per subschema (measured: a cold
 * compile of either corpus takes about a sixth less, docs/performance.md).
 */
function lookupOf(root: unknown, input: AdapterCompileInput): Record<string, unknown> | undefined {
  if (input.referenced === false) return Object.create(null) as Record<string, unknown>;
  try {
    return indexSchema(root);
  } catch {
    return undefined;
  }
}

/**
 * cfworker's indexer (`dereference`) as it would be if it knew `dependencies`: a map from property names to
 * schemas (or to arrays of names, which it skips), like `dependentSchemas`. Left to itself it walks `dependencies`
 * as one schema, so a dependency keyed `$ref`, `$id` or `$anchor` is read as an identifier of the map itself (and
 * throws on the engine's prototype-free objects), one keyed `type` or `required` is never indexed (a `$ref` to
 * `#/dependencies/type` misses), and one keyed `properties` is indexed a level too deep. Property names are data:
 * for the length of this synchronous call only, cfworker's own table of map keywords includes `dependencies`.
 */
function indexSchema(schema: unknown): Record<string, unknown> {
  const had = Object.hasOwn(schemaMapKeyword, 'dependencies');
  const before = schemaMapKeyword.dependencies;
  schemaMapKeyword.dependencies = true;
  try {
    return dereference(schema as Parameters<typeof dereference>[0]);
  } finally {
    if (had) schemaMapKeyword.dependencies = before as boolean;
    else delete schemaMapKeyword.dependencies;
  }
}

let pinned = 0;

/**
 * Where cfworker's resolution of a `$ref` falls short, the engine's own is used: a holder cfworker gave no
 * resolved URI gets one of ours, and a URI cfworker resolved but never indexed (`#/properties/%24ref`: cfworker
 * keys the subschema as `…/$ref` and compares fragments as written, where RFC 6901 §6 decodes them first) is filed
 * under the engine's target. A `$ref` cfworker resolved and indexed is left as it is. A holder the engine has no
 * single target for (a 2019-09 `$ref` beside a `$recursiveRef`) is left to cfworker, and refused if it misses.
 */
function pinMissedRefs(
  lookup: Record<string, unknown>,
  refTargets: ReadonlyMap<SchemaNode, SchemaNode | boolean>,
  mapped: (node: SchemaNode) => object,
): void {
  for (const [node, target] of refTargets) {
    const holder = mapped(node);
    const resolved = (holder as { __absolute_ref__?: string }).__absolute_ref__;
    if (resolved !== undefined && lookup[resolved] !== undefined) continue;
    let uri = resolved;
    if (uri === undefined) {
      uri = `urn:schemaval:ref:${pinned++}`;
      Object.defineProperty(holder, '__absolute_ref__', { value: uri, enumerable: false });
    }
    lookup[uri] = typeof target === 'object' ? mapped(target) : target;
  }
}

/**
 * Copies the schema objects of a schema (never `const`/`enum` values or property names, which may well be called
 * "uniqueItems"), leaving out `uniqueItems: true`. `false` stand-ins are shared: they have no uniqueItems.
 */
function dropUniqueItems(
  node: unknown,
  keywords: Readonly<Record<string, SubschemaKeyword>>,
  twins: Map<object, object>,
  found: { uniqueItems: boolean },
): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node) || isFalseSchema(node)) return node;
  const copy = (child: unknown): unknown => dropUniqueItems(child, keywords, twins, found);
  const out = createJsonObject();
  for (const key of Object.keys(node)) {
    const value = (node as Record<string, unknown>)[key];
    const shape = keywords[key]?.shape;
    if (key === 'uniqueItems' && value === true) found.uniqueItems = true;
    else if (shape === undefined || typeof value !== 'object' || value === null) out[key] = value;
    else if (Array.isArray(value)) out[key] = shape === 'array' || shape === 'schemaOrArray' ? value.map(copy) : value;
    else if (shape === 'map' || shape === 'dependencies') {
      const map = createJsonObject();
      for (const name of Object.keys(value)) map[name] = copy((value as Record<string, unknown>)[name]);
      out[key] = map;
    } else out[key] = copy(value);
  }
  twins.set(node, out);
  return out;
}

/** cfworker's marks on a schema object (non-enumerable): what its walk reads of a `$ref` holder. */
const stamps = ['__absolute_uri__', '__absolute_ref__', '__absolute_recursive_ref__'] as const;

/**
 * `value` with its `false` stand-ins turned back into `false`: the same object where none lies below it, else a
 * copy (with cfworker's stamps); `twins` maps each copied object to its copy. Notes any array-valued `items`.
 */
function withPlainFalse(value: unknown, twins: Map<object, object>, found: { itemsArrays: boolean }): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isFalseSchema(value)) return false;
  const known = twins.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (const [i, item] of value.entries()) {
      const twin = withPlainFalse(item, twins, found);
      if (twin === item) continue;
      out ??= value.slice();
      out[i] = twin;
    }
    if (out === undefined) return value;
    twins.set(value, out);
    return out;
  }
  const node = value as Record<string, unknown>;
  if (Array.isArray(node.items)) found.itemsArrays = true;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(node)) {
    const child = node[key];
    const twin = withPlainFalse(child, twins, found);
    if (twin === child) continue;
    if (out === undefined) {
      out = createJsonObject();
      for (const name of Object.keys(node)) out[name] = node[name];
      for (const stamp of stamps) if (Object.hasOwn(node, stamp)) Object.defineProperty(out, stamp, { value: node[stamp] });
    }
    out[key] = twin;
  }
  if (out === undefined) return value;
  twins.set(node, out);
  return out;
}

function refuse(code: 'invalid_schema' | 'unresolved_ref', message: string): Refused {
  return { status: 'refused', refusal: { code, message } };
}
