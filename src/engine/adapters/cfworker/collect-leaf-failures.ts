// Turns @cfworker/json-schema's flat output into leaf failures (decisions/003-leaf-issues.md). cfworker writes a
// wrapper unit ("a subschema had errors") and then its children, so the output is a tree in pre-order; one pass
// with a stack finds where each unit's children end, and the walk after it visits every unit once, stopping
// as soon as it has `limit` leaves.
// The leaf itself is built in build-leaf.ts, the closest branch of a failed `anyOf`/`oneOf` chosen in closest-branch.ts.
import type { LeafFailure } from '../../schema/schema-validator-adapter.ts';
import { build, requiredLike } from './build-leaf.ts';
import { closestOf } from './closest-branch.ts';
import {
  add,
  type CollectInput,
  type Context,
  createSink,
  type Entry,
  keywordOf,
  type OutputUnitLike,
  type Sink,
  slash,
  startsWith,
  whereOf,
} from './leaf-context.ts';
import { insideContains, locate, segmentsOf } from './schema-locations.ts';

export type { CollectInput, OutputUnitLike } from './leaf-context.ts';

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

/** Collects leaf failures from cfworker's output in time linear in the number of units. */
export function collectLeafFailures(units: readonly OutputUnitLike[], input: CollectInput): Collected {
  let containsNoise = false;
  for (let i = 0; i < units.length && !containsNoise; i++) containsNoise = (units[i] as OutputUnitLike).keyword === 'minContains';
  const context: Context = { input, units, ends: units.length === 1 ? oneUnit : extents(units), containsNoise };
  const sink = createSink(input.limit);
  collectRange(context, 0, units.length, sink, false);
  return { leaves: sink.entries.map((entry) => build(context, entry)), complete: !sink.overflow };
}

/** The extents of a lone unit (a wrong type at the root, say): it has no children. */
const oneUnit: readonly number[] = Object.freeze([1]);

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
        // Never `units[-1]`: V8 looks a negative index up as a named property, up the prototype chain, on every call.
        const before = previous >= 0 ? units[previous] : undefined;
        const same =
          before !== undefined && before.keywordLocation === unit.keywordLocation && before.instanceLocation === unit.instanceLocation;
        if (same) {
          context.ordinals ??= new Map();
          context.ordinals.set(i, (context.ordinals.get(previous) ?? 0) + 1);
        }
        previous = i;
      }
      if (propertyName) {
        context.propertyNames ??= new Set();
        context.propertyNames.add(i);
      }
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
    const last = branches.length > 0 ? branches[branches.length - 1] : undefined;
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
    const instancePath = segmentsOf(here);
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
