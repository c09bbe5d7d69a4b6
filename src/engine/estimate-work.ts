import type { CheckedSchema } from './check-schema.ts';
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

type Scan = DuplicateScan & { readonly total: number; readonly rowsCost: number };

/**
 * Over-approximates the validator's work on an instance without running it: a co-walk of the instance and the
 * engine's schema copy that counts one unit per (instance value, subschema) visit, following in place every
 * reference, `allOf`/`anyOf`/`oneOf` branch, `not`, `if` and `then` and `else`, and the dependent schemas of
 * present properties, and descending into children for every child applicator whatever the outcome (the
 * validator's full mode does the same). Keyword costs that grow with the data are charged too: object keys,
 * `properties` entries, `required` names, `enum`/`const` sizes, string lengths under `pattern` and the length
 * checks, each key per `patternProperties` pattern, and `uniqueItems` (hashed here; the pairwise scan the
 * validator would otherwise run is charged only when hashing found a duplicate). Iterative, since schemas and
 * instances can nest deeper than the call stack, and it stops once the count passes `budget`, so the estimate
 * itself costs O(budget).
 */
export function estimateWork(checked: CheckedSchema, instance: unknown, budget: number, options: EstimateOptions = {}): WorkEstimate {
  const plans = planWork(checked);
  const perMultipleOf = (options.multipleOfCost ?? 0) * tick;
  // Counted in ticks (a sixteenth of a visit), so cheap per-item work (a key, a character) is charged fairly.
  const limit = budget * visit;
  const values: unknown[] = [];
  const steps: Plan[] = [];
  const anchors: (Plan | null)[] = [];
  const scans = new Map<readonly unknown[], Scan>();
  let work = 0;
  /** What the validator's pairwise `uniqueItems` scans cost if it runs them (when any array has a duplicate). */
  let pairwise = 0;
  let hold = true;
  const push = (value: unknown, plan: Plan | null, anchor: Plan | null): void => {
    if (work > limit) return; // over budget: the rest of a loop costs nothing more
    work += visit;
    if (plan === null) return; // a boolean subschema: decided at once
    if (typeof value !== 'object' || value === null) {
      // A primitive meets the same subschemas whatever it holds: their sum is computed once per subschema.
      const summed = plan.primitive === undefined ? primitiveCost(plan) : plan.primitive;
      if (summed !== null) {
        work += primitiveWork(summed, value);
        return;
      }
    }
    values.push(value);
    steps.push(plan);
    anchors.push(anchor);
  };
  const pushAll = (value: unknown, list: readonly (Plan | null)[], anchor: Plan | null): void => {
    for (const plan of list) push(value, plan, anchor);
  };

  push(instance, plans.root, null);
  while (values.length > 0 && work <= limit && (hold || work + pairwise <= limit)) {
    const value = values.pop();
    const plan = steps.pop() as Plan;
    let anchor = anchors.pop() as Plan | null;
    if (plan.recursiveAnchor && anchor === null) anchor = plan;
    if (plan.recursiveRef) {
      // The validator first re-enters this very subschema with the static target as anchor, then jumps there.
      if (anchor === null) push(value, plan.recursiveTarget === null ? null : plan, plan.recursiveTarget);
      else push(value, anchor, anchor);
    }
    if (plan.refOnly) {
      push(value, plan.ref, anchor);
      continue;
    }
    if (plan.hasRef) push(value, plan.ref, anchor);
    pushAll(value, plan.inPlace, anchor);
    pushAll(value, plan.branches, plan.recursiveAnchor ? anchor : null);
    // A branch costs the validator a scope record and a location of its own, and a failed one errors that are
    // copied up and then dropped: about two visits more.
    work += 2 * plan.branches.length * visit;
    if (typeof value === 'object' && value !== null) {
      work += plan.structuredEquality * tick;
      if (Array.isArray(value)) visitArray(plan, value, anchor);
      else visitObject(plan, value as Record<string, unknown>, anchor);
    } else {
      work += plan.enumCount * tick;
      if (typeof value === 'string') {
        if (plan.pattern) work += (value.length + visit) * tick;
        if (plan.lengthCheck) work += value.length * tick;
      } else if (typeof value === 'number' && plan.multipleOf) work += perMultipleOf;
    }
  }
  const total = hold ? work : work + pairwise;

  function primitiveWork(summed: PrimitiveCost, value: unknown): number {
    let ticks = summed.visits * visit + summed.enums * tick;
    if (typeof value === 'string') ticks += (summed.patterns * (value.length + visit) + summed.lengthChecks * value.length) * tick;
    else if (typeof value === 'number') ticks += summed.multipleOfs * perMultipleOf;
    return ticks;
  }
  return { work: Math.ceil(total / visit), overBudget: total > limit, uniqueItemsHold: hold };

  function visitObject(plan: Plan, object: Record<string, unknown>, anchor: Plan | null): void {
    const keys = Object.keys(object);
    work += (keys.length + plan.objectFixed) * tick;
    if (plan.propertyNames !== undefined) for (const key of keys) push(key, plan.propertyNames, anchor);
    for (const [name, sub] of plan.dependents) {
      if (!Object.hasOwn(object, name)) continue;
      if (typeof sub === 'number') work += sub * tick;
      else push(object, sub, anchor);
    }
    const properties = plan.properties;
    if (properties !== undefined) for (const [name, sub] of properties) if (Object.hasOwn(object, name)) push(object[name], sub, anchor);
    // Which keys match a pattern is not decided here (that would run the patterns): every key is charged as one.
    // The validator compiles each pattern per object and tests every key (about two visits each).
    for (const [length, sub] of plan.patternProperties) {
      work += length * tick;
      for (const key of keys) {
        work += (2 * visit + key.length) * tick;
        push(object[key], sub, anchor);
      }
    }
    if (plan.additionalProperties !== undefined) {
      const named = plan.propertyNameSet;
      for (const key of keys) if (!named.has(key)) push(object[key], plan.additionalProperties, anchor);
    }
    if (plan.unevaluatedProperties !== undefined) for (const key of keys) push(object[key], plan.unevaluatedProperties, anchor);
  }

  function visitArray(plan: Plan, array: readonly unknown[], anchor: Plan | null): void {
    if (!plan.arrayWork) return;
    const length = array.length;
    let next = 0;
    for (const tuple of [plan.prefixItems, plan.tupleItems]) {
      const end = Math.min(tuple.length, length);
      for (; next < end; next++) push(array[next], tuple[next] as Plan | null, anchor);
    }
    if (plan.hasItems) {
      const rest = plan.tupleItems.length > 0 ? plan.additionalItems : plan.items;
      if (rest !== undefined) for (let i = next; i < length; i++) push(array[i], rest, anchor);
    }
    if (plan.contains !== undefined) for (const item of array) push(item, plan.contains, anchor);
    if (plan.unevaluatedItems !== undefined) for (let i = next; i < length; i++) push(array[i], plan.unevaluatedItems, anchor);
    if (plan.uniqueItems) chargeUnique(array);
  }

  function chargeUnique(array: readonly unknown[]): void {
    let scan = scans.get(array);
    if (scan === undefined) {
      const found = findDuplicates(array);
      work += found.cost * hashTicks;
      // The validator compares row j against every k and stops at the first equal pair; comparing two
      // structured items may walk both of them.
      const n = array.length;
      const rows = found.firstDuplicate === -1 ? n : found.firstDuplicate + 1;
      const total = found.sizes.reduce((sum, size) => sum + size, 0);
      let rowsCost = rows * n * tick;
      if (total > 0)
        for (let j = 0; j < rows; j++) if ((found.sizes[j] as number) > 0) rowsCost += (n * (found.sizes[j] as number) + total) * tick;
      scan = { ...found, total, rowsCost };
      scans.set(array, scan);
    }
    if (scan.firstDuplicate !== -1) hold = false;
    pairwise += scan.rowsCost;
  }
}
