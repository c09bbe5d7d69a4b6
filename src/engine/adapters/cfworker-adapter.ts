// The only module that imports @cfworker/json-schema (DESIGN §1).
import { dereference, format, type OutputUnit, type SchemaDraft, validate } from '@cfworker/json-schema';
import type { Dialect } from '../../protocol/dialect.ts';
import { createJsonObject } from '../copy-json.ts';
import { formFormatCheckers } from '../form-formats.ts';
import type {
  AdapterCompileInput,
  CompiledAdapterSchema,
  LeafFailure,
  SchemaNode,
  SchemaValidatorAdapter,
} from '../schema-validator-adapter.ts';
import { isFalseSchema } from '../walk-schema.ts';
import { hasPatterns, withLinearPatterns } from './linear-regexp-scope.ts';

// The elicitation form formats, under names of our own: the library's own formats stay as they are for others.
for (const [name, check] of Object.entries(formFormatCheckers)) format[name] = check;

const drafts: Record<Dialect, SchemaDraft> = {
  '2020-12': '2020-12',
  '2019-09': '2019-09',
  'draft-07': '7',
  'draft-06': '7',
  'draft-04': '4',
};

/** Keywords whose failure only wraps the failures of a subschema; their children are reported instead. */
const wrappers = new Set([
  '$ref',
  '$recursiveRef',
  'allOf',
  'if',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
]);

/** Creates the default adapter: @cfworker/json-schema, eval-free, so it runs in Workers and strict-CSP pages. */
export function createCfworkerAdapter(): SchemaValidatorAdapter {
  return { id: 'cfworker-4.1.6', compile: compileWithCfworker };
}

function compileWithCfworker(input: AdapterCompileInput): ReturnType<SchemaValidatorAdapter['compile']> {
  const { schema, dialect } = input;
  // cfworker resolves a missing or relative root id against self.location; pin the absolute URI the engine used.
  if (typeof schema === 'object') schema.$id = input.base;
  let lookup: Record<string, unknown>;
  try {
    lookup = dereference(schema as Parameters<typeof dereference>[0]);
  } catch {
    return { ok: false, code: 'invalid_schema', message: 'the validator could not index this schema (conflicting identifiers)' };
  }
  // cfworker also files an embedded resource's $anchor under the outer base, overwriting a real anchor of the
  // same name there (JSON-Schema-Test-Suite "order of evaluation: $id and $anchor and $ref"). Put them back.
  for (const [uri, node] of input.anchors) lookup[uri] = node;
  for (const node of input.refNodes) {
    const uri = (node as { __absolute_ref__?: string }).__absolute_ref__;
    if (uri === undefined || lookup[uri] === undefined) {
      return { ok: false, code: 'unresolved_ref', message: `the validator cannot resolve "$ref": ${JSON.stringify(String(node.$ref))}` };
    }
  }
  const draft = drafts[dialect];
  // The verdict comes from a twin where `false` is `false` again: cfworker answers it at once, whereas the
  // `{"not": {}}` stand-in (kept for well-located issues) costs two more subschema visits each time.
  const twins = new Map<object, object>();
  const fast = withPlainFalse(schema, twins) as Parameters<typeof validate>[1];
  let fastLookup: Record<string, unknown>;
  try {
    fastLookup = dereference(fast);
  } catch {
    return { ok: false, code: 'invalid_schema', message: 'the validator could not index this schema (conflicting identifiers)' };
  }
  for (const [uri, node] of input.anchors) fastLookup[uri] = twins.get(node) ?? node;
  // cfworker runs `pattern`/`patternProperties` with `new RegExp`; inside this scope that is the linear matcher.
  const run = hasPatterns(schema) ? withLinearPatterns : <T>(call: () => T): T => call();
  const compiled: CompiledAdapterSchema = {
    validate(instance) {
      const root = schema as Parameters<typeof validate>[1];
      const refs = lookup as Parameters<typeof validate>[3];
      // Short-circuiting stops at the first failure: as exact a verdict, far cheaper. Only an invalid instance
      // is walked again in full, for its complete list of issues.
      if (run(() => validate(instance, fast, draft, fastLookup as Parameters<typeof validate>[3], true)).valid) return [];
      const result = run(() => validate(instance, root, draft, refs, false));
      if (result.valid) return [{ instancePath: [], keyword: 'schema', schema: {}, schemaPath: [] }];
      const leaves = collect(result.errors, 0, result.errors.length, { root: schema, lookup, propertyName: false, located: new Map() });
      // Never report "invalid" without a reason.
      return leaves.length > 0 ? leaves : [{ instancePath: [], keyword: 'schema', schema: {}, schemaPath: [] }];
    },
  };
  return { ok: true, compiled };
}

/** A copy of the engine's schema with its `false` stand-ins turned back into `false`; `twins` maps old → new. */
function withPlainFalse(value: unknown, twins: Map<object, object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isFalseSchema(value)) return false;
  if (Array.isArray(value)) {
    const out = value.map((item) => withPlainFalse(item, twins));
    twins.set(value, out);
    return out;
  }
  const out = createJsonObject();
  for (const key of Object.keys(value)) out[key] = withPlainFalse((value as Record<string, unknown>)[key], twins);
  twins.set(value, out);
  return out;
}

interface Context {
  readonly root: SchemaNode | boolean;
  readonly lookup: Record<string, unknown>;
  readonly propertyName: boolean;
  /** Keyword locations already resolved during this call (a failing anyOf repeats them many times). */
  readonly located: Map<string, { schema: SchemaNode; schemaPath: string[] }>;
}

/** Turns cfworker's flat, pre-ordered output (wrapper, then its children) into leaf failures. */
function collect(units: readonly OutputUnit[], start: number, end: number, context: Context): LeafFailure[] {
  const leaves: LeafFailure[] = [];
  let i = start;
  while (i < end) {
    const unit = units[i] as OutputUnit;
    const prefixes = childPrefixes(unit);
    let j = i + 1;
    while (j < end && prefixes.some((prefix) => (units[j] as OutputUnit).keywordLocation.startsWith(prefix))) j++;
    if (insideContains(unit.keywordLocation)) {
      // An item that does not match `contains` is not a failure; `contains`/`minContains` report the count.
    } else if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf') {
      leaves.push(...alternatives(unit, units, i + 1, j, context));
    } else if (wrappers.has(unit.keyword) && j > i + 1) {
      const nested = unit.keyword === 'propertyNames' ? { ...context, propertyName: true } : context;
      leaves.push(...collect(units, i + 1, j, nested));
    } else {
      leaves.push(toLeaf(unit, context));
    }
    i = j;
  }
  return leaves;
}

/**
 * A failed `anyOf`/`oneOf`: when every alternative failed on `type` alone, one merged type failure; when all but
 * one did, that one is what the author meant, so its failures; otherwise one failure for the keyword itself.
 */
function alternatives(unit: OutputUnit, units: readonly OutputUnit[], start: number, end: number, context: Context): LeafFailure[] {
  const at = locate(unit.keywordLocation, context);
  const options = at.schema[unit.keyword];
  const count = Array.isArray(options) ? options.length : 0;
  const prefix = `${unit.keywordLocation}/`;
  const byBranch = new Map<number, LeafFailure[]>();
  let i = start;
  while (i < end) {
    const branch = Number.parseInt((units[i] as OutputUnit).keywordLocation.slice(prefix.length), 10);
    let j = i + 1;
    while (j < end && (units[j] as OutputUnit).keywordLocation.startsWith(`${prefix}${branch}/`)) j++;
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), ...collect(units, i, j, context)]);
    i = j;
  }
  const matched = count - byBranch.size;
  const own: LeafFailure = {
    ...at,
    instancePath: pointerSegments(unit.instanceLocation),
    keyword: unit.keyword,
    alternatives: { count, matched },
  };
  if (matched > 0) return [own];
  const here = unit.instanceLocation;
  const typeOnly = (leaves: LeafFailure[]): boolean =>
    leaves.length > 0 && leaves.every((leaf) => leaf.keyword === 'type' && leaf.instancePath.join('/') === pointerSegments(here).join('/'));
  const branches = [...byBranch.values()];
  const typeBranches = branches.filter(typeOnly);
  if (typeBranches.length === branches.length && branches.length > 0) {
    const types = new Set<string>();
    for (const leaf of typeBranches.flat()) for (const type of leaf.types ?? []) types.add(type);
    return [{ ...(typeBranches[0]?.[0] as LeafFailure), types: [...types] }];
  }
  if (typeBranches.length === branches.length - 1) return branches.find((leaves) => !typeOnly(leaves)) ?? [own];
  return [own];
}

function toLeaf(unit: OutputUnit, context: Context): LeafFailure {
  const at = locate(unit.keywordLocation, context);
  const leaf: LeafFailure = { ...at, instancePath: pointerSegments(unit.instanceLocation), keyword: unit.keyword };
  if (unit.keyword === 'type') {
    const type = at.schema.type;
    return { ...leaf, types: Array.isArray(type) ? (type as string[]) : [String(type)] };
  }
  return context.propertyName ? { ...leaf, propertyName: true } : leaf;
}

/** Where a unit's children sit: under its own location, except `if`, whose children come from then/else. */
function childPrefixes(unit: OutputUnit): string[] {
  if (unit.keyword !== 'if') return [`${unit.keywordLocation}/`];
  const parent = unit.keywordLocation.slice(0, -'/if'.length);
  return [`${parent}/then/`, `${parent}/else/`];
}

const mapKeywords = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** Whether a keyword location lies inside a `contains` subschema (and not in a property named "contains"). */
function insideContains(keywordLocation: string): boolean {
  const segments = keywordLocation.split('/');
  for (let i = 1; i < segments.length - 1; i++) {
    if (segments[i] === 'contains' && !mapKeywords.has(segments[i - 1] ?? '')) return true;
  }
  return false;
}

/** Finds the subschema holding a keyword from cfworker's keyword location, following `$ref`s as it goes. */
function locate(keywordLocation: string, context: Context): { schema: SchemaNode; schemaPath: string[] } {
  const known = context.located.get(keywordLocation);
  if (known !== undefined) return known;
  const found = walkTo(keywordLocation, context) ?? { schema: {}, schemaPath: [] };
  context.located.set(keywordLocation, found);
  return found;
}

function walkTo(keywordLocation: string, context: Context): { schema: SchemaNode; schemaPath: string[] } | undefined {
  const segments = pointerSegments(keywordLocation);
  segments.pop();
  let node: unknown = context.root;
  for (const segment of segments) {
    if (typeof node !== 'object' || node === null) return undefined;
    const holder = node as Record<string, unknown>;
    if (segment === '$ref') node = context.lookup[String(holder.__absolute_ref__)];
    else if (segment === '$recursiveRef') node = context.lookup[String(holder.__absolute_recursive_ref__)];
    else node = holder[segment];
  }
  if (typeof node !== 'object' || node === null) return undefined;
  return { schema: node as SchemaNode, schemaPath: segments };
}

/** `#/a~1b/0` → `['a/b', '0']` (cfworker percent-encodes pointer segments). */
function pointerSegments(location: string): string[] {
  const body = location.startsWith('#') ? location.slice(1) : location;
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // keep the raw segment: cfworker only encodes with encodeURI, so this is not expected
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}
