// Turns @cfworker/json-schema's flat output into leaf failures (decisions/003-leaf-issues.md). cfworker writes a
// wrapper unit ("a subschema had errors") and then its children, so the output is a tree in pre-order; one pass
// with a stack finds where each unit's children end, and the walk after it visits every unit once, stopping
// as soon as it has `limit` leaves.
import { keywordSegments } from '../../schema/keyword-segments.ts';
import type { LeafFailure, SchemaNode } from '../../schema/schema-validator-adapter.ts';

/** The fields of a cfworker output unit the collection reads. */
export interface OutputUnitLike {
  readonly keyword: string;
  readonly keywordLocation: string;
  readonly instanceLocation: string;
}

/** What the collection needs besides the units. */
export interface CollectInput {
  /** The schema cfworker validated against and its lookup, to find the subschema behind each location. */
  readonly root: SchemaNode | boolean;
  readonly lookup: Record<string, unknown>;
  /** The validated value, to name the missing properties of `required`-like keywords. */
  readonly instance: unknown;
  /** Stop after this many leaves. */
  readonly limit: number;
}

/** Leaves in cfworker's evaluation order; `complete` is false when the walk stopped at the limit. */
export interface Collected {
  readonly leaves: LeafFailure[];
  readonly complete: boolean;
}

/** Keywords whose failure only wraps the failures of a subschema; their children are reported instead. */
const wrappers = new Set(
  [
    '$ref $recursiveRef allOf if properties patternProperties additionalProperties unevaluatedProperties',
    'propertyNames dependentSchemas dependencies items prefixItems additionalItems unevaluatedItems',
  ]
    .join(' ')
    .split(' '),
);

const slash = 47;

interface Located {
  readonly schema: SchemaNode;
  readonly schemaPath: string[];
}

/**
 * A leaf not built yet: the index of its unit, or (for an `anyOf`/`oneOf`) its keyword, cfworker's instance
 * location and how to build it. Only reported leaves are built.
 */
type Entry = number | { readonly keyword: string; readonly where: string; readonly leaf: () => LeafFailure };

/**
 * Leaves found so far at one level: the whole result, or one alternative of an `anyOf`/`oneOf`. Most are kept
 * as unit indexes and only built if they are reported.
 */
interface Sink {
  readonly entries: Entry[];
  readonly limit: number;
  /** A leaf arrived when the sink was full: there is more than it holds. */
  overflow: boolean;
}

interface Context {
  readonly input: CollectInput;
  readonly units: readonly OutputUnitLike[];
  readonly ends: readonly number[];
  /**
   * Items that fail a `contains` subschema stay in cfworker's output, beside the unit that counts them, only
   * when `minContains` failed (otherwise they are dropped or sit under the `contains` unit).
   */
  readonly containsNoise: boolean;
  /** Per unit after the first of its run: its place among the `required`-like units of one location. */
  readonly ordinals: Map<number, number>;
  /** Units inside `propertyNames`, whose subject is the property's name. */
  readonly propertyNames: Set<number>;
  readonly located: Map<string, Located>;
  readonly segments: Map<string, readonly string[]>;
  /** Missing names per `required`-like unit location. */
  readonly missing: Map<string, NonNullable<LeafFailure['missing']>[]>;
}

/** Collects leaf failures from cfworker's output in time linear in the number of units. */
export function collectLeafFailures(units: readonly OutputUnitLike[], input: CollectInput): Collected {
  const context: Context = {
    input,
    units,
    ends: extents(units),
    containsNoise: units.some((unit) => unit.keyword === 'minContains'),
    ordinals: new Map(),
    propertyNames: new Set(),
    located: new Map(),
    segments: new Map(),
    missing: new Map(),
  };
  const sink = createSink(input.limit);
  collectRange(context, 0, units.length, sink, false);
  return { leaves: sink.entries.map((entry) => build(context, entry)), complete: !sink.overflow };
}

const createSink = (limit: number): Sink => ({ entries: [], limit, overflow: false });

function add(sink: Sink, entry: Entry): void {
  if (sink.entries.length >= sink.limit) sink.overflow = true;
  else sink.entries.push(entry);
}

const whereOf = (context: Context, entry: Entry): string =>
  typeof entry === 'number' ? (context.units[entry] as OutputUnitLike).instanceLocation : entry.where;
const keywordOf = (context: Context, entry: Entry): string =>
  typeof entry === 'number' ? (context.units[entry] as OutputUnitLike).keyword : entry.keyword;

/** For each unit, the index just past its last descendant (a unit's children follow it and sit under it). */
function extents(units: readonly OutputUnitLike[]): number[] {
  const ends: number[] = new Array(units.length).fill(units.length);
  const open: number[] = [];
  for (let i = 0; i < units.length; i++) {
    const location = (units[i] as OutputUnitLike).keywordLocation;
    while (open.length > 0) {
      const top = open[open.length - 1] as number;
      if (encloses(units[top] as OutputUnitLike, location)) break;
      ends[top] = i;
      open.pop();
    }
    open.push(i);
  }
  return ends;
}

/** Whether a location lies under a unit: under its own location, except `if`, whose children come from then/else. */
function encloses(unit: OutputUnitLike, location: string): boolean {
  const own = unit.keywordLocation;
  if (unit.keyword === 'if') {
    const parent = own.length - 'if'.length;
    const branch = location.slice(parent, parent + 5);
    return (branch === 'then/' || branch === 'else/') && startsWith(location, own.slice(0, parent));
  }
  return location.length > own.length && location.charCodeAt(own.length) === slash && startsWith(location, own);
}

/** `text.startsWith(prefix)`, which is several times slower in V8 than comparing a slice. */
const startsWith = (text: string, prefix: string): boolean => text.length >= prefix.length && text.slice(0, prefix.length) === prefix;

const requiredLike = (unit: OutputUnitLike, hasChildren: boolean): boolean =>
  unit.keyword === 'required' || unit.keyword === 'dependentRequired' || (unit.keyword === 'dependencies' && !hasChildren);

function collectRange(context: Context, start: number, end: number, sink: Sink, propertyName: boolean): void {
  const { units, ends } = context;
  let previous = -1;
  for (let i = start; i < end && !sink.overflow; i = ends[i] as number) {
    const unit = units[i] as OutputUnitLike;
    const next = ends[i] as number;
    if (context.containsNoise && insideContains(unit.keywordLocation)) {
      // An item that does not match `contains` is not a failure; `contains`/`minContains` report the count.
    } else if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf') {
      alternatives(context, i, sink, propertyName);
    } else if (next > i + 1 && wrappers.has(unit.keyword)) {
      collectRange(context, i + 1, next, sink, propertyName || unit.keyword === 'propertyNames');
    } else {
      if (requiredLike(unit, next > i + 1)) {
        // cfworker writes one unit per missing name, in the keyword's order, one after another.
        // (array-form `dependencies` may have schema-form siblings in between).
        const before = units[previous];
        const same =
          before !== undefined && before.keywordLocation === unit.keywordLocation && before.instanceLocation === unit.instanceLocation;
        if (same) context.ordinals.set(i, (context.ordinals.get(previous) ?? 0) + 1);
        previous = i;
      }
      if (propertyName) context.propertyNames.add(i);
      add(sink, i);
    }
  }
}

/**
 * A failed `anyOf`/`oneOf`: when every alternative failed on `type` alone, one merged type failure; when all but
 * one did, that one is what the author meant, so its failures; otherwise one failure for the keyword itself, with
 * the alternative that came closest.
 */
function alternatives(context: Context, at: number, sink: Sink, propertyName: boolean): void {
  const { units, ends } = context;
  const unit = units[at] as OutputUnitLike;
  const prefixLength = unit.keywordLocation.length + 1;
  // cfworker writes each alternative's failures together, in order; each is collected once, into its own sink.
  const branches: { index: number; sink: Sink }[] = [];
  for (let i = at + 1; i < (ends[at] as number); i = ends[i] as number) {
    const index = Number.parseInt((units[i] as OutputUnitLike).keywordLocation.slice(prefixLength), 10);
    const last = branches[branches.length - 1];
    let branch = last?.index === index ? last : undefined;
    // Indexes only grow; a repeat (not expected) joins its branch rather than count it twice.
    if (branch === undefined && last !== undefined && index < last.index) branch = branches.find((known) => known.index === index);
    if (branch === undefined) {
      branch = { index, sink: createSink(sink.limit) };
      branches.push(branch);
    }
    collectRange(context, i, ends[i] as number, branch.sink, propertyName);
  }
  const here = unit.instanceLocation;
  const keyword = unit.keyword;
  // cfworker drops a failed `anyOf`'s unit when an alternative matched; a `oneOf` may have matched twice.
  const count = (): number => {
    const options = locate(context, unit.keywordLocation).schema[keyword];
    return Array.isArray(options) ? options.length : 0;
  };
  const matched = keyword === 'oneOf' ? count() - branches.length : 0;
  const own = (closest?: LeafFailure['closest']): LeafFailure => {
    const { schema, schemaPath } = locate(context, unit.keywordLocation);
    const instancePath = segmentsOf(context, here);
    const alternatives = { count: count(), matched };
    const leaf: LeafFailure = { schema, schemaPath, instancePath, keyword, alternatives };
    if (closest !== undefined) return propertyName ? { ...leaf, closest, propertyName } : { ...leaf, closest };
    return propertyName ? { ...leaf, propertyName } : leaf;
  };
  if (matched > 0 || branches.length === 0) {
    add(sink, { keyword, where: here, leaf: () => own() });
    return;
  }
  const typeOnly = branches.map(({ sink: branch }) => isTypeOnly(context, branch, here));
  const typeCount = typeOnly.filter(Boolean).length;
  if (typeCount === branches.length) {
    const merged = (): LeafFailure => {
      const types = new Set<string>();
      for (const { sink: branch } of branches)
        for (const entry of branch.entries) for (const type of build(context, entry).types ?? []) types.add(type);
      return { ...build(context, (branches[0] as { sink: Sink }).sink.entries[0] as Entry), types: [...types] };
    };
    add(sink, { keyword: 'type', where: here, leaf: merged });
    return;
  }
  if (typeCount === branches.length - 1) {
    const meant = (branches[typeOnly.indexOf(false)] as { sink: Sink }).sink;
    for (const entry of meant.entries) add(sink, entry);
    if (meant.overflow) sink.overflow = true;
    return;
  }
  add(sink, { keyword, where: here, leaf: () => own(closestOf(context, branches, typeOnly, propertyName ? undefined : unit)) });
}

/** A branch failed on `type` alone at the alternatives' own location (and nothing was left uncollected). */
function isTypeOnly(context: Context, branch: Sink, here: string): boolean {
  if (branch.overflow || branch.entries.length === 0) return false;
  return branch.entries.every((entry) => keywordOf(context, entry) === 'type' && whereOf(context, entry) === here);
}

/**
 * The closest alternative. First the discriminator (`discriminatorChoice`): when the value's own property picks
 * some branches by `const`/`enum` and rules others out, only those it picks are candidates. Then, among the
 * candidates, the one with the fewest failures among those that got past `type` (a value of the wrong type was never
 * meant for that branch); ties go to the first. Counts stop at the sink's limit. When the discriminator's choice
 * leaves no candidate (its branches failed on `type` alone), every branch is one again.
 */
function closestOf(
  context: Context,
  branches: readonly { index: number; sink: Sink }[],
  typeOnly: readonly boolean[],
  unit: OutputUnitLike | undefined,
): LeafFailure['closest'] {
  const chosen = unit === undefined ? undefined : discriminatorChoice(context, unit, branches);
  const best = (chosen !== undefined ? fewest(branches, typeOnly, chosen) : undefined) ?? fewest(branches, typeOnly, undefined);
  if (best === undefined) return undefined;
  return { index: best.index, failures: best.sink.entries.map((entry) => build(context, entry)) };
}

/** The branch with the fewest failures past `type`, among `only` (positions in `branches`) when given. */
function fewest(
  branches: readonly { index: number; sink: Sink }[],
  typeOnly: readonly boolean[],
  only: ReadonlySet<number> | undefined,
): { index: number; sink: Sink } | undefined {
  let best: { index: number; sink: Sink } | undefined;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const [k, branch] of branches.entries()) {
    const size = branch.sink.entries.length + (branch.sink.overflow ? 1 : 0);
    if (typeOnly[k] || size === 0 || size >= bestCount || (only !== undefined && !only.has(k))) continue;
    best = branch;
    bestCount = size;
  }
  return best;
}

/** At most this many property names are tried as discriminators per `anyOf`/`oneOf` (real unions have one). */
const maxDiscriminators = 8;

/**
 * The branches a discriminator picks, as positions in `branches`, or undefined when none does. A discriminator is a
 * property of the value whose `const` or `enum` in some branch admits the value there while another branch's
 * `const`/`enum` rejects it (`{"kind":"dog"}` against a cat/dog union keyed by `kind`). The names tried are the
 * OpenAPI `discriminator.propertyName` beside the keyword (a hint only: the `const`/`enum` decides), then those of
 * the `const`/`enum` failures the branches already have at the value's direct properties, in output order. A branch
 * picked by more discriminators wins over one picked by fewer.
 *
 * The work is bounded by branches × names: for each, the branch's `properties` is read in the branch itself, the
 * schema its `$ref` points to, and the members of its `allOf` (see `propertyHolders`). Nothing is validated again.
 */
function discriminatorChoice(
  context: Context,
  unit: OutputUnitLike,
  branches: readonly { index: number; sink: Sink }[],
): ReadonlySet<number> | undefined {
  const here = unit.instanceLocation;
  const value = valueAt(context.input.instance, segmentsOf(context, here));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const holder = locate(context, unit.keywordLocation).schema;
  const options = holder[unit.keyword];
  if (!Array.isArray(options)) return undefined;
  const names = discriminatorNames(context, holder, here, branches);
  const scores: number[] = new Array(branches.length).fill(0);
  const holders = new Map<number, readonly SchemaNode[]>();
  for (const name of names) {
    if (!Object.hasOwn(value, name)) continue;
    const own = (value as Record<string, unknown>)[name];
    if (!isScalar(own)) continue;
    const admitting: number[] = [];
    let rejected = false;
    for (const [k, branch] of branches.entries()) {
      let found = holders.get(k);
      if (found === undefined) {
        found = propertyHolders(context, options[branch.index]);
        holders.set(k, found);
      }
      const verdict = constVerdict(context, found, name, own);
      if (verdict === 'admits') admitting.push(k);
      else if (verdict === 'rejects') rejected = true;
    }
    if (!rejected) continue;
    for (const k of admitting) scores[k] = (scores[k] as number) + 1;
  }
  const top = Math.max(0, ...scores);
  if (top === 0) return undefined;
  const chosen = new Set<number>();
  for (const [k, score] of scores.entries()) if (score === top) chosen.add(k);
  return chosen;
}

/** The property names to try as discriminators, in order, without repeats, at most `maxDiscriminators`. */
function discriminatorNames(
  context: Context,
  holder: SchemaNode,
  here: string,
  branches: readonly { index: number; sink: Sink }[],
): string[] {
  const names = new Set<string>();
  const hint = holder.discriminator;
  if (typeof hint === 'object' && hint !== null && typeof (hint as Record<string, unknown>).propertyName === 'string') {
    names.add((hint as Record<string, unknown>).propertyName as string);
  }
  const depth = segmentsOf(context, here).length + 1;
  for (const { sink } of branches) {
    for (const entry of sink.entries) {
      if (names.size >= maxDiscriminators) return [...names];
      const keyword = keywordOf(context, entry);
      if (keyword !== 'const' && keyword !== 'enum') continue;
      const where = whereOf(context, entry);
      // A direct property of the value: one segment below `here`.
      if (where.length <= here.length + 1 || !startsWith(where, here) || where.charCodeAt(here.length) !== slash) continue;
      const segments = segmentsOf(context, where);
      if (segments.length === depth) names.add(segments[depth - 1] as string);
    }
  }
  return [...names];
}

/** A JSON scalar, which `const`/`enum` compare with `===` (cfworker's deep comparison agrees on these). */
const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** `$ref` hops followed from one schema before giving up (a chain of aliases, or a cycle). */
const maxRefHops = 4;
/** Schemas read per branch for its `properties`: the branch, what its `$ref` names, its `allOf` members. */
const maxHolders = 16;

/** A schema and the one its `$ref` points to, and so on, up to `maxRefHops` (2019+ reads `$ref`'s siblings too). */
function refChain(context: Context, node: unknown): SchemaNode[] {
  const chain: SchemaNode[] = [];
  let current = node;
  for (let hop = 0; hop <= maxRefHops && typeof current === 'object' && current !== null; hop++) {
    const schema = current as SchemaNode;
    if (chain.includes(schema)) break;
    chain.push(schema);
    if (typeof schema.$ref !== 'string') break;
    current = context.input.lookup[String(schema.__absolute_ref__ ?? schema.$ref)];
  }
  return chain;
}

/**
 * The schemas whose `properties` a branch's value must satisfy, as far as they can be seen cheaply: the branch and
 * its `$ref` chain, and each `allOf` member of those and the member's own `$ref` chain (one level of `allOf`). Not
 * read: `if`/`then`, `dependentSchemas`, nested `anyOf`/`oneOf`, `allOf` inside `allOf`, `$recursiveRef`/`$dynamicRef`.
 */
function propertyHolders(context: Context, branch: unknown): readonly SchemaNode[] {
  const found: SchemaNode[] = [];
  for (const schema of refChain(context, branch)) {
    if (found.length >= maxHolders) break;
    found.push(schema);
    if (!Array.isArray(schema.allOf)) continue;
    for (const member of schema.allOf) {
      for (const part of refChain(context, member)) if (found.length < maxHolders && !found.includes(part)) found.push(part);
    }
  }
  return found;
}

/**
 * What a branch's `const`/`enum` for one property says of the value there: it admits it, rejects it, or the branch
 * has none (`silent`). A rejection anywhere wins: every one of the holders applies.
 */
function constVerdict(
  context: Context,
  holders: readonly SchemaNode[],
  name: string,
  value: string | number | boolean | null,
): 'admits' | 'rejects' | 'silent' {
  let verdict: 'admits' | 'silent' = 'silent';
  for (const holder of holders) {
    const properties = holder.properties;
    if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, name)) continue;
    for (const schema of refChain(context, (properties as Record<string, unknown>)[name])) {
      if (Object.hasOwn(schema, 'const')) {
        if (schema.const !== value) return 'rejects';
        verdict = 'admits';
      }
      if (Array.isArray(schema.enum)) {
        if (!schema.enum.includes(value)) return 'rejects';
        verdict = 'admits';
      }
    }
  }
  return verdict;
}

/** Builds the leaf of an entry. */
function build(context: Context, entry: Entry): LeafFailure {
  if (typeof entry !== 'number') return entry.leaf();
  const unit = context.units[entry] as OutputUnitLike;
  const { schema, schemaPath } = locate(context, unit.keywordLocation);
  const keyword = unit.keyword;
  const instancePath = segmentsOf(context, unit.instanceLocation);
  const propertyName = context.propertyNames.size > 0 && context.propertyNames.has(entry) ? true : undefined;
  if (keyword === 'type') {
    // No `type` where the walk ended (a subschema it could not locate): no types, and the engine says so.
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
    return propertyName
      ? { schema, schemaPath, instancePath, keyword, types, propertyName }
      : { schema, schemaPath, instancePath, keyword, types };
  }
  let missing: LeafFailure['missing'];
  if (requiredLike(unit, (context.ends[entry] as number) > entry + 1)) {
    const names = missingAt(context, unit, schema);
    missing = names[(context.ordinals.get(entry) ?? 0) % Math.max(1, names.length)];
  }
  if (propertyName) return { schema, schemaPath, instancePath, keyword, propertyName };
  return missing === undefined ? { schema, schemaPath, instancePath, keyword } : { schema, schemaPath, instancePath, keyword, missing };
}

/** The names a `required`-like keyword misses at one location, in the keyword's own order (as cfworker checks). */
function missingAt(context: Context, unit: OutputUnitLike, schema: SchemaNode): NonNullable<LeafFailure['missing']>[] {
  const key = `${unit.keywordLocation}\u0000${unit.instanceLocation}`;
  let names = context.missing.get(key);
  if (names === undefined) {
    names = missingNames(unit.keyword, schema, valueAt(context.input.instance, segmentsOf(context, unit.instanceLocation)));
    context.missing.set(key, names);
  }
  return names;
}

const has = (object: unknown, key: string): boolean => typeof object === 'object' && object !== null && Object.hasOwn(object, key);

function missingNames(keyword: string, schema: SchemaNode, value: unknown): NonNullable<LeafFailure['missing']>[] {
  const out: NonNullable<LeafFailure['missing']>[] = [];
  if (keyword === 'required') {
    const required = schema.required;
    if (Array.isArray(required)) for (const name of required) if (typeof name === 'string' && !has(value, name)) out.push({ name });
    return out;
  }
  const dependencies = schema[keyword];
  if (typeof dependencies !== 'object' || dependencies === null) return out;
  for (const requiredBy in dependencies) {
    const needs = (dependencies as Record<string, unknown>)[requiredBy];
    if (!has(value, requiredBy) || !Array.isArray(needs)) continue;
    for (const name of needs) if (typeof name === 'string' && !has(value, name)) out.push({ name, requiredBy });
  }
  return out;
}

function valueAt(instance: unknown, path: readonly string[]): unknown {
  let value = instance;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Array.isArray(value) ? value[Number(segment)] : has(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value;
}

/** Whether a keyword location lies inside a `contains` subschema (and not in a property named "contains"). */
function insideContains(keywordLocation: string): boolean {
  if (!keywordLocation.includes('/contains/')) return false;
  const segments = pointerSegments(keywordLocation);
  const keywords = keywordSegments(segments);
  for (let i = 0; i < segments.length - 1; i++) if (segments[i] === 'contains' && keywords[i]) return true;
  return false;
}

/** Finds the subschema holding a keyword from cfworker's keyword location, following `$ref`s as it goes. */
function locate(context: Context, keywordLocation: string): Located {
  const known = context.located.get(keywordLocation);
  if (known !== undefined) return known;
  const found = walkTo(context, keywordLocation) ?? { schema: {}, schemaPath: [] };
  context.located.set(keywordLocation, found);
  return found;
}

function walkTo(context: Context, keywordLocation: string): Located | undefined {
  const segments = pointerSegments(keywordLocation);
  segments.pop();
  const keywords = keywordSegments(segments);
  let node: unknown = context.input.root;
  for (const [i, segment] of segments.entries()) {
    if (typeof node !== 'object' || node === null) return undefined;
    const holder = node as Record<string, unknown>;
    // Only a reference in keyword place is followed: `/properties/$ref` is the property named "$ref".
    if (keywords[i] && segment === '$ref') node = context.input.lookup[String(holder.__absolute_ref__)];
    else if (keywords[i] && segment === '$recursiveRef') node = context.input.lookup[String(holder.__absolute_recursive_ref__)];
    else node = Object.hasOwn(holder, segment) ? holder[segment] : undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  return { schema: node as SchemaNode, schemaPath: segments };
}

/** An instance location's segments, decoded once per distinct location. */
function segmentsOf(context: Context, location: string): readonly string[] {
  let segments = context.segments.get(location);
  if (segments === undefined) {
    segments = pointerSegments(location);
    context.segments.set(location, segments);
  }
  return segments;
}

/** `#/a~1b/0` → `['a/b', '0']` (cfworker percent-encodes pointer segments). */
function pointerSegments(location: string): string[] {
  const body = location.startsWith('#') ? location.slice(1) : location;
  if (body === '') return [];
  const segments = body.slice(1).split('/');
  // Most locations need no decoding at all.
  if (!body.includes('%') && !body.includes('~')) return segments;
  return segments.map((segment) => {
    let decoded = segment;
    if (segment.includes('%')) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // keep the raw segment: cfworker only encodes with encodeURI, so this is not expected
      }
    }
    return decoded.includes('~') ? decoded.replace(/~1/g, '/').replace(/~0/g, '~') : decoded;
  });
}
