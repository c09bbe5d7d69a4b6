// The one answer that needs no walk: an instance whose type the root's `type` refuses, where nothing else at the
// root applies to that type. cfworker then writes exactly one unit, the root's `type`; the gate gives its leaf
// without the walk, its set-up and its location lookups (issue 21: an argument-less tool called with a string).
import type { LeafFailure, SchemaNode } from '../../schema/schema-validator-adapter.ts';

/** How cfworker names an instance's type: `integer` is a number that `type: "integer"` also accepts. */
type InstanceClass = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/**
 * Root keys that change no verdict: cfworker ignores them, or (`$recursiveAnchor`) they matter only to a
 * `$recursiveRef`, which is not among these keys.
 */
const inert = new Set([
  '$schema',
  '$id',
  'id',
  '$comment',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** Keywords cfworker applies only to instances of one type (its `instanceType === …` blocks). */
const classOf: ReadonlyMap<string, InstanceClass> = new Map([
  ...keysFor('object', [
    'properties',
    'patternProperties',
    'additionalProperties',
    'required',
    'minProperties',
    'maxProperties',
    'propertyNames',
    'dependentRequired',
    'dependentSchemas',
    'dependencies',
    'unevaluatedProperties',
  ]),
  ...keysFor('array', [
    'items',
    'prefixItems',
    'additionalItems',
    'contains',
    'minContains',
    'maxContains',
    'minItems',
    'maxItems',
    'uniqueItems',
    'unevaluatedItems',
  ]),
  ...keysFor('string', ['minLength', 'maxLength', 'pattern', 'format']),
  ...keysFor('number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
]);

function keysFor(instanceClass: InstanceClass, keys: readonly string[]): [string, InstanceClass][] {
  return keys.map((key) => [key, instanceClass]);
}

/**
 * The instances the root alone refuses, as bits (a number, so each compiled schema keeps no object for it): one
 * bit per type cfworker names, numbers split into integral and not. 0 when the gate never answers.
 */
export type RefusedTypes = number;

const bits = { null: 1, boolean: 2, string: 4, array: 8, object: 16, integral: 32, fractional: 64 } as const;

/**
 * What the gate answers for a root. Any key outside the two lists above (`const`, `enum`, `$ref`, an applicator, a
 * key cfworker does not name) means the walk is needed: the gate only answers what it can prove.
 */
export function refusedTypes(root: unknown): RefusedTypes {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return 0;
  const types = typesOf(root as SchemaNode);
  if (types === undefined) return 0;
  const applied = new Set<InstanceClass>();
  for (const key of Object.keys(root)) {
    if (key === 'type' || inert.has(key)) continue;
    const instanceClass = classOf.get(key);
    if (instanceClass === undefined) return 0;
    applied.add(instanceClass);
  }
  let refused = 0;
  for (const name of ['null', 'boolean', 'string', 'array', 'object'] as const) {
    if (!applied.has(name) && !types.includes(name)) refused |= bits[name];
  }
  if (!applied.has('number') && !types.includes('number')) {
    refused |= bits.fractional;
    if (!types.includes('integer')) refused |= bits.integral;
  }
  return refused;
}

/** Whether `refused` (of the root) refuses this instance without a walk. */
export function refusesAtRoot(refused: RefusedTypes, instance: unknown): boolean {
  if (instance === null) return (refused & bits.null) !== 0;
  if (Array.isArray(instance)) return (refused & bits.array) !== 0;
  switch (typeof instance) {
    case 'boolean':
      return (refused & bits.boolean) !== 0;
    case 'string':
      return (refused & bits.string) !== 0;
    case 'object':
      return (refused & bits.object) !== 0;
    case 'number':
      // As cfworker counts an integer: a number with no fraction (so not NaN or an infinity).
      return (refused & (Number.isInteger(instance) ? bits.integral : bits.fractional)) !== 0;
    default:
      // A value JSON cannot carry is cfworker's to reject, not the gate's to describe.
      return false;
  }
}

/** The leaf cfworker's one unit becomes: the root's `type`, at the root. */
export function rootTypeLeaf(root: SchemaNode): LeafFailure {
  return { schema: root, schemaPath: [], instancePath: [], keyword: 'type', types: typesOf(root) ?? [] };
}

function typesOf(schema: SchemaNode): readonly string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) && type.every((name) => typeof name === 'string') ? (type as string[]) : undefined;
}
