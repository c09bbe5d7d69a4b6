import type { CheckedSchema } from '../policy/checked-schema.ts';
import { type DuplicateScan, findDuplicates } from './find-duplicates.ts';
import { type Plan, type PrimitiveCost, planWork, primitiveCost } from './plan-work.ts';

/** What checking one instance would cost the validator, found before it runs. */
export interface WorkEstimate {
  /** Work units counted; past the budget the count stops early, so it is then only a lower bound. */
  readonly work: number;
  readonly overBudget: boolean;
  /** Every array that a `uniqueItems: true` reaches is free of duplicates (the adapter may skip its pairwise scan). */
  readonly uniqueItemsHold: boolean;
}

export interface EstimateOptions {
  /**
   * Extra units per `multipleOf` applied to a number: the exact-number path rewrites each `multipleOf` into an
   * `enum` of the instance's huge values, so there it costs about twice their count.
   */
  readonly multipleOfCost?: number;
}

/** One visit (about 0.4 µs of the validator's time on a server core) in ticks. */
const visit = 16;
/** One tick: a key listed, a name looked up, a character scanned, a primitive compared (about 25 ns). */
const tick = 1;
/** Hashing (or comparing) one JSON node for `uniqueItems`: about 50 ns. */
const hashTicks = 4;
/**
 * A branch costs the validator a scope record and a location of its own, and a failed one errors that are copied
 * up and then dropped: about two visits more.
 */
export const branchTicks = 2 * visit;
/**
 * The characters of a visit's location that its visit already pays for. cfworker builds every location by
 * appending: each child's instance pointer encodes its key (`encodePointer`, ~5–6 ns a character), `properties`
 * encodes the schema's name into the keyword location too, and on the invalid path every failure's locations are
 * read (V8 flattens the concatenated string, ~4–5 ns a character, in the adapter's collection). So a visit costs,
 * beyond its unit, a tick for every `pathCharsPerTick` characters of its path past the first `freePathChars`:
 * the instance keys above it and the schema names (`properties` names, `patternProperties` patterns, dependent
 * names) its keyword location holds.
 */
export const freePathChars = 128;
export const pathCharsPerTick = 4;
// The static ceiling (work-bound.ts) charges what this estimate charges, in the same units.
export { hashTicks, tick as tickCost, visit as visitTicks };

/** What a visit's location costs beyond its unit, in ticks. */
const pathTicks = (chars: number): number => (chars > freePathChars ? Math.floor((chars - freePathChars) / pathCharsPerTick) : 0);

type Scan = DuplicateScan & { readonly total: number; readonly rowsCost: number };

/**
 * Over-approximates the validator's work on an instance without running it: a co-walk of the instance and the
 * engine's schema copy that counts one unit per (instance value, subschema) visit, following in place every
 * reference, `allOf`/`anyOf`/`oneOf` branch, `not`, `if` and `then` and `else`, and the dependent schemas of
 * present properties, and descending into children for every child applicator whatever the outcome (the
 * validator's full mode does the same). Keyword costs that grow with the data are charged too: object keys,
 * `properties` entries, `required` names, `enum`/`const` sizes, string lengths under `pattern` and the length
 * checks (a pattern's per character: its program's cost, src/engine/patterns/pattern-program.ts), each key per
 * `patternProperties` pattern, and `uniqueItems` (hashed here; the pairwise scan the
 * validator would otherwise run is charged only when hashing found a duplicate). Iterative, since schemas and
 * instances can nest deeper than the call stack, and it stops once the count passes `budget`, so the estimate
 * itself costs O(budget).
 */
export function estimateWork(checked: CheckedSchema, instance: unknown, budget: number, options: EstimateOptions = {}): WorkEstimate {
  const plans = planWork(checked);
  // Counted in ticks (a sixteenth of a visit), so cheap per-item work (a key, a character) is charged fairly.
  const walk: Walk = {
    limit: budget * visit,
    perMultipleOf: (options.multipleOfCost ?? 0) * tick,
    values: [],
    steps: [],
    anchors: [],
    paths: [],
    scans: undefined,
    work: 0,
    pairwise: 0,
    hold: true,
  };
  const { values, steps, anchors, paths } = walk;
  push(walk, instance, plans.root, null, 0);
  while (values.length > 0 && walk.work <= walk.limit && (walk.hold || walk.work + walk.pairwise <= walk.limit)) {
    const value = values.pop();
    const plan = steps.pop() as Plan;
    let anchor = anchors.pop() as Plan | null;
    const path = paths.pop() as number;
    if (plan.recursiveAnchor && anchor === null) anchor = plan;
    if (plan.recursiveRef) {
      // The validator first re-enters this very subschema with the static target as anchor, then jumps there.
      if (anchor === null) push(walk, value, plan.recursiveTarget === null ? null : plan, plan.recursiveTarget, path);
      else push(walk, value, anchor, anchor, path);
    }
    if (plan.refOnly) {
      push(walk, value, plan.ref, anchor, path);
      continue;
    }
    if (plan.hasRef) push(walk, value, plan.ref, anchor, path);
    for (const sub of plan.inPlace) push(walk, value, sub, anchor, path);
    const branchAnchor = plan.recursiveAnchor ? anchor : null;
    for (const sub of plan.branches) push(walk, value, sub, branchAnchor, path);
    walk.work += plan.branches.length * branchTicks;
    if (typeof value === 'object' && value !== null) {
      walk.work += plan.structuredEquality * tick;
      if (Array.isArray(value)) visitArray(walk, plan, value, anchor, path);
      else visitObject(walk, plan, value as Record<string, unknown>, anchor, path);
    } else {
      walk.work += plan.enumCount * tick;
      if (typeof value === 'string') {
        if (plan.pattern) walk.work += (value.length * plan.patternTicks + visit) * tick;
        if (plan.lengthCheck) walk.work += value.length * tick;
      } else if (typeof value === 'number' && plan.multipleOf) walk.work += walk.perMultipleOf;
    }
  }
  const total = walk.hold ? walk.work : walk.work + walk.pairwise;
  return { work: Math.ceil(total / visit), overBudget: total > walk.limit, uniqueItemsHold: walk.hold };
}

/**
 * The state of one estimate. The steps below are module functions over it rather than closures: this runs before
 * every validation, and code loaded through tsx (esbuild `keepNames`) pays a `__name()` per closure it creates.
 */
interface Walk {
  readonly limit: number;
  readonly perMultipleOf: number;
  /**
   * The stack of (instance value, subschema plan, dynamic anchor, path characters) still to visit, as parallel
   * arrays. The path characters are what `pathTicks` charges: instance keys and schema names along the way.
   */
  readonly values: unknown[];
  readonly steps: Plan[];
  readonly anchors: (Plan | null)[];
  readonly paths: number[];
  /** `uniqueItems` scans by array (created on the first). */
  scans: Map<readonly unknown[], Scan> | undefined;
  work: number;
  /** What the validator's pairwise `uniqueItems` scans cost if it runs them (when any array has a duplicate). */
  pairwise: number;
  hold: boolean;
}

function push(walk: Walk, value: unknown, plan: Plan | null, anchor: Plan | null, path: number): void {
  if (walk.work > walk.limit) return; // over budget: the rest of a loop costs nothing more
  const located = pathTicks(path);
  walk.work += visit + located;
  if (plan === null) return; // a boolean subschema: decided at once
  if (typeof value !== 'object' || value === null) {
    // A primitive meets the same subschemas whatever it holds: their sum is computed once per subschema.
    const summed = plan.primitive === undefined ? primitiveCost(plan) : plan.primitive;
    if (summed !== null) {
      // Every subschema visited below sits at the same location (plus short keyword segments, not counted).
      walk.work += primitiveWork(walk, summed, value) + summed.visits * located;
      return;
    }
  }
  walk.values.push(value);
  walk.steps.push(plan);
  walk.anchors.push(anchor);
  walk.paths.push(path);
}

function primitiveWork(walk: Walk, summed: PrimitiveCost, value: unknown): number {
  let ticks = summed.visits * visit + summed.enums * tick;
  if (typeof value === 'string') ticks += (summed.patterns * visit + (summed.patternTicks + summed.lengthChecks) * value.length) * tick;
  else if (typeof value === 'number') ticks += summed.multipleOfs * walk.perMultipleOf;
  return ticks;
}

function visitObject(walk: Walk, plan: Plan, object: Record<string, unknown>, anchor: Plan | null, path: number): void {
  const keys = Object.keys(object);
  walk.work += (keys.length + plan.objectFixed) * tick;
  if (plan.propertyNames !== undefined) for (const key of keys) push(walk, key, plan.propertyNames, anchor, path + key.length);
  for (const [name, sub] of plan.dependents) {
    if (!Object.hasOwn(object, name)) continue;
    if (typeof sub === 'number') walk.work += sub * tick;
    else push(walk, object, sub, anchor, path + name.length);
  }
  const properties = plan.properties;
  // A `properties` entry puts its name in both locations: the instance's key and the schema's (the same text).
  if (properties !== undefined)
    for (const [name, sub] of properties) if (Object.hasOwn(object, name)) push(walk, object[name], sub, anchor, path + 2 * name.length);
  // Which keys match a pattern is not decided here (that would run the patterns): every key is charged as one.
  // The validator compiles each pattern per object and tests every key (about two visits each, plus the key's
  // length times the pattern's ticks per character). Keys × patterns can be tens of millions (1,000 patterns over
  // 55,000 keys): the loop stops as soon as the count passes the budget, so it costs O(budget) like the rest.
  for (const [length, charTicks, sub] of plan.patternProperties) {
    if (walk.work > walk.limit) return;
    walk.work += length * tick;
    for (const key of keys) {
      if (walk.work > walk.limit) return;
      walk.work += (2 * visit + key.length * charTicks) * tick;
      push(walk, object[key], sub, anchor, path + key.length + length);
    }
  }
  if (plan.additionalProperties !== undefined) {
    const named = plan.propertyNameSet;
    for (const key of keys) if (!named.has(key)) push(walk, object[key], plan.additionalProperties, anchor, path + key.length);
  }
  if (plan.unevaluatedProperties !== undefined)
    for (const key of keys) push(walk, object[key], plan.unevaluatedProperties, anchor, path + key.length);
}

function visitArray(walk: Walk, plan: Plan, array: readonly unknown[], anchor: Plan | null, path: number): void {
  if (!plan.arrayWork) return;
  const length = array.length;
  let next = 0;
  for (const tuple of [plan.prefixItems, plan.tupleItems]) {
    const end = Math.min(tuple.length, length);
    for (; next < end; next++) push(walk, array[next], tuple[next] as Plan | null, anchor, path);
  }
  if (plan.hasItems) {
    const rest = plan.tupleItems.length > 0 ? plan.additionalItems : plan.items;
    if (rest !== undefined) for (let i = next; i < length; i++) push(walk, array[i], rest, anchor, path);
  }
  if (plan.contains !== undefined) for (const item of array) push(walk, item, plan.contains, anchor, path);
  if (plan.unevaluatedItems !== undefined) for (let i = next; i < length; i++) push(walk, array[i], plan.unevaluatedItems, anchor, path);
  if (plan.uniqueItems) chargeUnique(walk, array);
}

function chargeUnique(walk: Walk, array: readonly unknown[]): void {
  walk.scans ??= new Map();
  let scan = walk.scans.get(array);
  if (scan === undefined) {
    const found = findDuplicates(array);
    walk.work += found.cost * hashTicks;
    // The validator compares row j against every k and stops at the first equal pair; comparing two
    // structured items may walk both of them.
    const n = array.length;
    const rows = found.firstDuplicate === -1 ? n : found.firstDuplicate + 1;
    let total = 0;
    for (const size of found.sizes) total += size;
    let rowsCost = rows * n * tick;
    if (total > 0)
      for (let j = 0; j < rows; j++) if ((found.sizes[j] as number) > 0) rowsCost += (n * (found.sizes[j] as number) + total) * tick;
    scan = { ...found, total, rowsCost };
    walk.scans.set(array, scan);
  }
  if (scan.firstDuplicate !== -1) walk.hold = false;
  walk.pairwise += scan.rowsCost;
}
