import { patternCharTicks } from '../patterns/linear-pattern.ts';
import type { CheckedSchema } from '../policy/checked-schema.ts';
import type { SchemaObject } from '../schema/schema-types.ts';

/**
 * One subschema as the work estimate reads it: what it applies in place, what it applies to children, and its
 * fixed costs. Plans are one monomorphic shape, so the estimate reads them far faster than the schema objects,
 * which come in as many shapes as the document has.
 */
export interface Plan {
  readonly recursiveAnchor: boolean;
  /** 2019-09 `"$recursiveRef": "#"`, and its static target (the anchor used when none is in scope yet). */
  readonly recursiveRef: boolean;
  readonly recursiveTarget: Plan | null;
  readonly hasRef: boolean;
  /** draft-04…07: `$ref` and nothing beside it is applied. */
  readonly refOnly: boolean;
  readonly ref: Plan | null;
  /** `not`, `if`, `then`, `else`: applied in place, keeping the recursive anchor. */
  readonly inPlace: readonly (Plan | null)[];
  /** `anyOf`, `allOf`, `oneOf` branches. */
  readonly branches: readonly (Plan | null)[];
  /** Units for `enum` on a primitive. */
  readonly enumCount: number;
  /** Units for `enum`/`const` on an object or array: the JSON nodes a deep comparison may walk. */
  readonly structuredEquality: number;
  readonly multipleOf: boolean;
  readonly pattern: boolean;
  /** Ticks per character of a string tested against `pattern` (0 without one): its program's cost, pattern-program.ts. */
  readonly patternTicks: number;
  readonly lengthCheck: boolean;
  /** `required` names, `properties`/dependency entries: iterated whatever the object holds. */
  readonly objectFixed: number;
  readonly propertyNames: Plan | null | undefined;
  /** Dependent schemas by property name, or the length of a list of required names. */
  readonly dependents: readonly (readonly [string, Plan | null | number])[];
  readonly properties: readonly (readonly [string, Plan | null])[] | undefined;
  readonly propertyNameSet: ReadonlySet<string>;
  /** Each `patternProperties` entry: the pattern's length, its ticks per character of a key, and its subschema. */
  readonly patternProperties: readonly (readonly [length: number, charTicks: number, sub: Plan | null])[];
  readonly additionalProperties: Plan | null | undefined;
  readonly unevaluatedProperties: Plan | null | undefined;
  readonly arrayWork: boolean;
  readonly prefixItems: readonly (Plan | null)[];
  readonly tupleItems: readonly (Plan | null)[];
  readonly hasItems: boolean;
  readonly items: Plan | null | undefined;
  readonly additionalItems: Plan | null | undefined;
  readonly contains: Plan | null | undefined;
  readonly unevaluatedItems: Plan | null | undefined;
  readonly uniqueItems: boolean;
  /** Filled in by `primitiveCost` on first use; `null` when it cannot be summed (a `$recursiveRef` below). */
  primitive: PrimitiveCost | null | undefined;
}

/**
 * What a subschema costs on a string, number, boolean or null, summed over everything it applies in place: the
 * same on every primitive of a type (strings scale with their length), so it is summed once per subschema.
 */
export interface PrimitiveCost {
  /** Subschemas visited below this one. */
  readonly visits: number;
  /** Units per `enum` entry compared. */
  readonly enums: number;
  /** `pattern`s applied (each costs a visit plus the string's length times its ticks per character). */
  readonly patterns: number;
  /** Their ticks per character, summed. */
  readonly patternTicks: number;
  /** Length checks and formats (each costs the string's length in ticks). */
  readonly lengthChecks: number;
  readonly multipleOfs: number;
}

/** Plans for every subschema; `null` stands for a boolean subschema, decided without work. */
export interface WorkPlans {
  readonly root: Plan | null;
}

const cache = new WeakMap<CheckedSchema, WorkPlans>();
const none: readonly never[] = Object.freeze([]);

/** Every field set in the constructor, so all plans share one hidden class (fast, monomorphic reads). */
class PlanRecord implements Plan {
  recursiveAnchor = false;
  recursiveRef = false;
  recursiveTarget: Plan | null = null;
  hasRef = false;
  refOnly = false;
  ref: Plan | null = null;
  inPlace: readonly (Plan | null)[] = none;
  branches: readonly (Plan | null)[] = none;
  enumCount = 0;
  structuredEquality = 0;
  multipleOf = false;
  pattern = false;
  patternTicks = 0;
  lengthCheck = false;
  objectFixed = 0;
  propertyNames: Plan | null | undefined = undefined;
  dependents: readonly (readonly [string, Plan | null | number])[] = none;
  properties: readonly (readonly [string, Plan | null])[] | undefined = undefined;
  propertyNameSet: ReadonlySet<string> = new Set();
  patternProperties: readonly (readonly [number, number, Plan | null])[] = none;
  additionalProperties: Plan | null | undefined = undefined;
  unevaluatedProperties: Plan | null | undefined = undefined;
  arrayWork = false;
  prefixItems: readonly (Plan | null)[] = none;
  tupleItems: readonly (Plan | null)[] = none;
  hasItems = false;
  items: Plan | null | undefined = undefined;
  additionalItems: Plan | null | undefined = undefined;
  contains: Plan | null | undefined = undefined;
  unevaluatedItems: Plan | null | undefined = undefined;
  uniqueItems = false;
  primitive: PrimitiveCost | null | undefined = undefined;
}

/** Builds (once per checked schema) the plans the work estimate walks. */
export function planWork(checked: CheckedSchema): WorkPlans {
  const known = cache.get(checked);
  if (known !== undefined) return known;
  const legacyRef = checked.dialect === 'draft-04' || checked.dialect === 'draft-06' || checked.dialect === 'draft-07';
  const plans = new Map<SchemaObject, Plan>();
  const pending: [SchemaObject, PlanRecord][] = [];
  // Plans refer to plans (references make cycles), so each is created empty and filled in afterwards.
  const planOf = (schema: unknown): Plan | null => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
    let plan = plans.get(schema as SchemaObject);
    if (plan === undefined) {
      const record = new PlanRecord();
      plan = record;
      plans.set(schema as SchemaObject, record);
      pending.push([schema as SchemaObject, record]);
    }
    return plan;
  };
  const optional = (schema: unknown): Plan | null | undefined => (schema === undefined ? undefined : planOf(schema));
  const list = (value: unknown): (Plan | null)[] => (Array.isArray(value) ? value.map(planOf) : []);
  const root = planOf(checked.root);
  while (pending.length > 0) {
    const [schema, record] = pending.pop() as [SchemaObject, PlanRecord];
    const targets = checked.targets.get(schema) ?? [];
    const hasRef = typeof schema.$ref === 'string';
    const recursiveRef = checked.dialect === '2019-09' && schema.$recursiveRef === '#';
    const properties = schema.properties as Record<string, unknown> | undefined;
    const dependents: [string, Plan | null | number][] = [];
    // A required name costs a lookup, and when it is missing an error as dear as a visit.
    let objectFixed = Array.isArray(schema.required) ? schema.required.length * 16 : 0;
    for (const keyword of ['dependentRequired', 'dependentSchemas', 'dependencies']) {
      const map = schema[keyword] as Record<string, unknown> | undefined;
      if (map === undefined) continue;
      for (const [name, sub] of Object.entries(map)) {
        objectFixed++;
        dependents.push([name, Array.isArray(sub) ? sub.length : planOf(sub)]);
      }
    }
    if (properties !== undefined) objectFixed += Object.keys(properties).length;
    const items = schema.items;
    const patterns = schema.patternProperties as Record<string, unknown> | undefined;
    const built: Plan = {
      recursiveAnchor: schema.$recursiveAnchor === true,
      recursiveRef,
      recursiveTarget: recursiveRef ? planOf(targets[hasRef ? 1 : 0]) : null,
      hasRef,
      refOnly: legacyRef && hasRef,
      ref: hasRef ? planOf(targets[0]) : null,
      inPlace: ['not', 'if', 'then', 'else'].filter((keyword) => schema[keyword] !== undefined).map((keyword) => planOf(schema[keyword])),
      branches: [...list(schema.anyOf), ...list(schema.allOf), ...list(schema.oneOf)],
      enumCount: Array.isArray(schema.enum) ? schema.enum.length : 0,
      structuredEquality:
        (Array.isArray(schema.enum) ? nodesOf(schema.enum) : 0) + (schema.const !== undefined ? nodesOf(schema.const) : 0),
      multipleOf: schema.multipleOf !== undefined,
      pattern: typeof schema.pattern === 'string',
      patternTicks: typeof schema.pattern === 'string' ? patternCharTicks(schema.pattern) : 0,
      lengthCheck: schema.minLength !== undefined || schema.maxLength !== undefined || schema.format !== undefined,
      objectFixed,
      propertyNames: optional(schema.propertyNames),
      dependents,
      properties: properties === undefined ? undefined : Object.entries(properties).map(([name, sub]) => [name, planOf(sub)] as const),
      propertyNameSet: new Set(properties === undefined ? [] : Object.keys(properties)),
      patternProperties:
        patterns === undefined
          ? []
          : Object.entries(patterns).map(([pattern, sub]) => [pattern.length, patternCharTicks(pattern), planOf(sub)] as const),
      additionalProperties: optional(schema.additionalProperties),
      unevaluatedProperties: optional(schema.unevaluatedProperties),
      arrayWork: false,
      prefixItems: list(schema.prefixItems),
      tupleItems: list(items),
      hasItems: items !== undefined,
      items: Array.isArray(items) ? undefined : optional(items),
      additionalItems: optional(schema.additionalItems),
      contains: optional(schema.contains),
      unevaluatedItems: optional(schema.unevaluatedItems),
      uniqueItems: schema.uniqueItems === true,
      primitive: undefined,
    };
    const arrayWork =
      built.prefixItems.length > 0 ||
      built.hasItems ||
      built.contains !== undefined ||
      built.unevaluatedItems !== undefined ||
      built.uniqueItems;
    Object.assign(record, built, { arrayWork });
  }
  const result = { root };
  cache.set(checked, result);
  return result;
}

/** JSON nodes in an `enum`/`const` value: what a deep comparison may walk. */
function nodesOf(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    count++;
    if (typeof next === 'object' && next !== null)
      for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push(child);
  }
  return count;
}

/** The subschemas a plan applies to a primitive in place; `undefined` means a `$recursiveRef` (depends on scope). */
function inPlaceChildren(plan: Plan): readonly (Plan | null)[] | undefined {
  if (plan.recursiveRef) return undefined;
  if (plan.refOnly) return [plan.ref];
  return plan.hasRef ? [plan.ref, ...plan.inPlace, ...plan.branches] : [...plan.inPlace, ...plan.branches];
}

/** Sums (once, then memoised on the plans) what a subschema costs on a primitive; iterative post-order. */
export function primitiveCost(start: Plan): PrimitiveCost | null {
  if (start.primitive !== undefined) return start.primitive;
  const stack: { plan: Plan; children: readonly (Plan | null)[]; next: number; sum: number[] | null }[] = [];
  const onStack = new Set<Plan>();
  const open = (plan: Plan): void => {
    const children = inPlaceChildren(plan);
    if (children === undefined) {
      plan.primitive = null;
      return;
    }
    onStack.add(plan);
    // Each branch costs about two visits more than its own (see estimateWork).
    const own = [
      2 * plan.branches.length,
      plan.enumCount,
      plan.pattern ? 1 : 0,
      plan.patternTicks,
      plan.lengthCheck ? 1 : 0,
      plan.multipleOf ? 1 : 0,
    ];
    stack.push({ plan, children, next: 0, sum: own });
  };
  open(start);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.sum !== null && frame.next < frame.children.length) {
      const child = frame.children[frame.next++] as Plan | null;
      (frame.sum[0] as number)++;
      if (child === null) continue;
      if (child.primitive === undefined) {
        // The static pass refuses in-place cycles; should one slip through, the walk is used instead.
        if (onStack.has(child)) frame.sum = null;
        else {
          frame.next--;
          (frame.sum[0] as number)--;
          open(child);
        }
        continue;
      }
      if (child.primitive === null) frame.sum = null;
      else {
        const c = child.primitive;
        const [v, e, p, t, l, m] = frame.sum as [number, number, number, number, number, number];
        frame.sum = [v + c.visits, e + c.enums, p + c.patterns, t + c.patternTicks, l + c.lengthChecks, m + c.multipleOfs];
      }
      continue;
    }
    stack.pop();
    onStack.delete(frame.plan);
    const sum = frame.sum;
    frame.plan.primitive =
      sum === null
        ? null
        : {
            visits: sum[0] as number,
            enums: sum[1] as number,
            patterns: sum[2] as number,
            patternTicks: sum[3] as number,
            lengthChecks: sum[4] as number,
            multipleOfs: sum[5] as number,
          };
  }
  return start.primitive ?? null;
}
