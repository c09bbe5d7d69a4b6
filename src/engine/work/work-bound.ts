import type { ArraySums } from '../json/copy-json.ts';
import type { CheckedSchema } from '../policy/checked-schema.ts';
import { branchTicks, freePathChars, hashTicks, pathCharsPerTick, tickCost, visitTicks } from './estimate-work.ts';
import { type Plan, planWork } from './plan-work.ts';

/**
 * A static ceiling on what `estimateWork` would count for any instance, in ticks: at most
 * `perValue × values + perByte × bytes` for the visits and the data they read, where `values` and `bytes` are what
 * `copyJson` counted for the instance (its JSON values and the UTF-8 bytes of its JSON text), plus what the visits'
 * locations cost (see `ceilingTicks`). When that is within the budget, the estimate cannot be over it, so the
 * engine can skip the co-walk for small instances and stay bounded by construction.
 */
export interface WorkBound {
  readonly perValue: number;
  readonly perByte: number;
  /** The most characters of schema names (`properties` names, patterns, dependent names) one location can hold. */
  readonly namePath: number;
  /**
   * The most `uniqueItems: true` visits any one instance array can get (0: no `uniqueItems` applies). The ceiling
   * then also charges the hashing and the validator's pairwise scans, which grow with the square of an array's
   * size: an instance under it is checked with them, never hashed first.
   */
  readonly scans: number;
}

/** What the instance copy counted (`copyJson`): all the ceiling reads of the instance. */
export interface InstanceSize {
  readonly values: number;
  readonly bytes: number;
  /** The most characters of object keys on one route from the root. */
  readonly keyPath: number;
  readonly arrays: ArraySums;
}

/**
 * The ceiling in ticks for an instance of this size. A location's cost multiplies with depth, so it is not
 * linear; but every visit costs the estimate a whole visit, so there are at most `linear / visitTicks` of them,
 * and no location holds more instance keys than one route from the root has (`keyPath`), nor more schema names
 * than `namePath`. For a small instance (under `freePathChars` with the names) it adds nothing.
 */
export function ceilingTicks(bound: WorkBound, size: InstanceSize): number {
  const linear = bound.perValue * size.values + bound.perByte * size.bytes;
  const chars = size.keyPath + bound.namePath;
  const visits = linear / visitTicks;
  const located = chars > freePathChars ? linear + visits * ((chars - freePathChars) / pathCharsPerTick) : linear;
  if (bound.scans === 0) return located;
  // For an array of n items holding N nodes in B bytes, hashing it once costs at most 3·N + n·N + B/64 (a node
  // and its key, 64 characters, and comparisons where hashes meet), and each scan n² + 2·n·(3·N + B/64). The copy
  // summed those terms over the instance's arrays; each array is hashed once and scanned at most `scans` times.
  const { arrays } = size;
  const hashing = hashTicks * (3 * arrays.nodes + arrays.itemNodes + arrays.bytes / 64);
  const scan = arrays.itemPairs + 6 * arrays.itemNodes + arrays.itemBytes / 32;
  return located + (hashing + bound.scans * scan) * tickCost;
}

/** `null`: no static ceiling (references in a cycle, or `$recursiveRef`). */
const cache = new WeakMap<CheckedSchema, WorkBound | null>();

/** The schema's static ceiling, computed once per checked schema. */
export function workBound(checked: CheckedSchema): WorkBound | null {
  const known = cache.get(checked);
  if (known !== undefined) return known;
  const root = planWork(checked).root;
  const bound = root === null ? { perValue: visitTicks, perByte: 0, namePath: 0, scans: 0 } : boundOf(root);
  cache.set(checked, bound);
  return bound;
}

/** Whether an instance of this size is certainly within `budget` visits. */
export function withinBound(bound: WorkBound | null, size: InstanceSize, budget: number): boolean {
  return bound !== null && ceilingTicks(bound, size) <= budget * visitTicks;
}

/** The plans a plan applies to the same value: its reference, `not`/`if`/`then`/`else`, branches, dependent schemas. */
function inPlaceOf(plan: Plan): (Plan | null | undefined)[] {
  return [plan.ref, ...plan.inPlace, ...plan.branches, ...plan.dependents.map(([, sub]) => (typeof sub === 'number' ? undefined : sub))];
}

/** Every plan a plan leads to: in place (same value) or on a child value. */
function successors(plan: Plan): (Plan | null | undefined)[] {
  return [
    ...inPlaceOf(plan),
    plan.propertyNames,
    ...(plan.properties ?? []).map(([, sub]) => sub),
    ...plan.patternProperties.map(([, , sub]) => sub),
    plan.additionalProperties,
    plan.unevaluatedProperties,
    ...plan.prefixItems,
    ...plan.tupleItems,
    plan.items,
    plan.additionalItems,
    plan.contains,
    plan.unevaluatedItems,
  ];
}

/**
 * Post-order over the plans (iterative: reference chains can be longer than the call stack is deep). For a plan P
 * and a value v with n values and s bytes, the estimate charges at most A·n + B·s, where
 *   A = Σ A(in place) + max(own fixed ticks, M_A),   B = Σ B(in place) + own per-byte ticks + M_B,
 * and M_A, M_B bound what one child (an item, or a key with its value) costs per value and per byte of its own,
 * counting every child keyword that may meet it. Fixed costs per value fit in A since n ≥ 1; own + M_A·(n − 1) is
 * at most max(own, M_A)·n. String lengths and key lengths never exceed the bytes they take in the JSON text.
 */
function boundOf(root: Plan): WorkBound | null {
  const bounds = new Map<Plan, PlanBound>();
  const onPath = new Set<Plan>();
  const stack: { plan: Plan; next: (Plan | null | undefined)[]; at: number }[] = [];
  const open = (plan: Plan): boolean => {
    if (plan.recursiveRef) return false;
    onPath.add(plan);
    stack.push({ plan, next: successors(plan), at: 0 });
    return true;
  };
  if (!open(root)) return null;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.at < frame.next.length) {
      const child = frame.next[frame.at++];
      if (child === null || child === undefined || bounds.has(child)) continue;
      if (onPath.has(child)) return null; // a cycle: the cost grows with the instance's depth
      if (!open(child)) return null;
      continue;
    }
    stack.pop();
    onPath.delete(frame.plan);
    bounds.set(frame.plan, combine(frame.plan, bounds));
  }
  const found = bounds.get(root);
  return found === undefined ? null : { perValue: found.perValue, perByte: found.perByte, namePath: found.namePath, scans: found.scans };
}

/**
 * A plan's bound, with the `uniqueItems` scans one visit of it leads to on any one value: `here` on the value it is
 * applied to (its own and those of the plans in place), `below` on any one value under it, `scans` the larger.
 * A value under it meets its parent's child plans, and those of every plan in place on the parent: at most the
 * sum of what each gives one child.
 */
interface PlanBound extends WorkBound {
  readonly here: number;
  readonly below: number;
}

const absent: PlanBound = { perValue: 0, perByte: 0, namePath: 0, scans: 0, here: 0, below: 0 };
/** A boolean subschema: one visit, decided at once. */
const decided: PlanBound = { perValue: visitTicks, perByte: 0, namePath: 0, scans: 0, here: 0, below: 0 };

/** The schema names a plan's successors add to a location, beside each successor (as the estimate adds them). */
function namedSuccessors(plan: Plan): [number, Plan | null | undefined][] {
  return [
    ...successors(plan).map((sub) => [0, sub] as [number, Plan | null | undefined]),
    ...plan.dependents.map(([name, sub]) => [name.length, typeof sub === 'number' ? undefined : sub] as [number, Plan | null | undefined]),
    ...(plan.properties ?? []).map(([name, sub]) => [name.length, sub] as [number, Plan | null | undefined]),
    ...plan.patternProperties.map(([length, , sub]) => [length, sub] as [number, Plan | null | undefined]),
  ];
}

function combine(plan: Plan, bounds: ReadonlyMap<Plan, PlanBound>): PlanBound {
  const of = (sub: Plan | null | undefined): PlanBound =>
    sub === undefined ? absent : sub === null ? decided : (bounds.get(sub) as PlanBound);
  let sumValue = 0;
  let sumByte = 0;
  let here = plan.uniqueItems ? 1 : 0;
  let below = 0;
  for (const sub of inPlaceOf(plan)) {
    const bound = of(sub);
    sumValue += bound.perValue;
    sumByte += bound.perByte;
    here += bound.here;
    below += bound.below;
  }
  let fixed = visitTicks + plan.branches.length * branchTicks + plan.structuredEquality + plan.enumCount + plan.objectFixed;
  if (plan.pattern) fixed += visitTicks;
  for (const [length] of plan.patternProperties) fixed += length;
  for (const [, sub] of plan.dependents) if (typeof sub === 'number') fixed += sub;
  fixed *= tickCost;
  const ownByte = (plan.patternTicks + (plan.lengthCheck ? 1 : 0)) * tickCost;

  // One key and its value: the key is listed, each pattern is tested on it (its ticks per character of the key),
  // `propertyNames` checks it, and the value meets its `properties` entry or `additionalProperties`, every
  // `patternProperties` subschema and `unevaluatedProperties`.
  const patterns = plan.patternProperties.length;
  let keyTicks = 0;
  for (const [, charTicks] of plan.patternProperties) keyTicks += charTicks;
  const names = of(plan.propertyNames);
  let namedValue = of(plan.additionalProperties).perValue;
  let namedByte = of(plan.additionalProperties).perByte;
  for (const [, sub] of plan.properties ?? []) {
    namedValue = Math.max(namedValue, of(sub).perValue);
    namedByte = Math.max(namedByte, of(sub).perByte);
  }
  let namedScans = of(plan.additionalProperties).scans;
  for (const [, sub] of plan.properties ?? []) namedScans = Math.max(namedScans, of(sub).scans);
  let keyValue = (1 + patterns * 2 * visitTicks) * tickCost + names.perValue + namedValue + of(plan.unevaluatedProperties).perValue;
  let keyByte = keyTicks * tickCost + names.perByte + namedByte + of(plan.unevaluatedProperties).perByte;
  let keyScans = names.scans + namedScans + of(plan.unevaluatedProperties).scans;
  for (const [, , sub] of plan.patternProperties) {
    keyValue += of(sub).perValue;
    keyByte += of(sub).perByte;
    keyScans += of(sub).scans;
  }

  // One item: its tuple entry or `items`/`additionalItems`, `contains` and `unevaluatedItems`.
  let itemValue = 0;
  let itemByte = 0;
  // Counted whether or not the plan does array work: scans only ever make the ceiling higher.
  let positionalScans = 0;
  for (const sub of [...plan.prefixItems, ...plan.tupleItems, plan.items, plan.additionalItems]) {
    positionalScans = Math.max(positionalScans, of(sub).scans);
  }
  const itemScans = positionalScans + of(plan.contains).scans + of(plan.unevaluatedItems).scans;
  if (plan.arrayWork) {
    let perValue = 0;
    let perByte = 0;
    for (const sub of [...plan.prefixItems, ...plan.tupleItems, plan.items, plan.additionalItems]) {
      perValue = Math.max(perValue, of(sub).perValue);
      perByte = Math.max(perByte, of(sub).perByte);
    }
    itemValue = perValue + of(plan.contains).perValue + of(plan.unevaluatedItems).perValue;
    itemByte = perByte + of(plan.contains).perByte + of(plan.unevaluatedItems).perByte;
  }

  const childValue = Math.max(keyValue, itemValue);
  const childByte = Math.max(keyByte, itemByte);
  let namePath = 0;
  for (const [chars, sub] of namedSuccessors(plan)) namePath = Math.max(namePath, chars + of(sub).namePath);
  below += Math.max(keyScans, itemScans);
  return {
    perValue: sumValue + Math.max(fixed, childValue),
    perByte: sumByte + ownByte + childByte,
    namePath,
    scans: Math.max(here, below),
    here,
    below,
  };
}
