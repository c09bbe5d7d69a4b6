// fast-check arbitraries for JSON Schemas (2020-12 and draft-07) over the keywords tool schemas use, built from
// small pools so that generated instances meet the schema's properties, bounds and branches often.
import fc from 'fast-check';
import { type Json, type JsonObject, jsonArb, keyArb, numberArb, propertyNames, scalarArb } from './json-values.ts';

export type GeneratedDialect = '2020-12' | 'draft-07';
export type Schema = boolean | JsonObject;

export const dialectUris: Readonly<Record<GeneratedDialect, string>> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/** Names of the definitions every generated root carries; `$ref`s point at them. */
export const definitionNames = ['d0', 'd1'] as const;

/** Patterns with no backtracking risk, some of them sensitive to the `u` flag (`.` on an astral character). */
export const patternPool = ['^a', 'a', 'b$', '^[ab]*$', '^.$', '^..$', '\\d', '^x|y$', '😀', '^[^a]'] as const;

const typeNames = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

const smallCount = fc.integer({ min: 0, max: 3 });
const namesArb = fc.uniqueArray(keyArb, { minLength: 1, maxLength: 3 });
const patternArb = fc.constantFrom(...patternPool);
/** Divisors: integers, a binary fraction and decimal fractions that doubles cannot hold exactly. */
const multipleOfArb = fc.constantFrom(1, 2, 3, 0.5, 0.1, 0.01, 2.5);

type Sub = fc.Arbitrary<Schema>;

/** `if` with `then`, `else`, both or neither. */
function conditional(sub: Sub): fc.Arbitrary<JsonObject> {
  const maybe = fc.option(sub, { nil: undefined });
  return fc.tuple(sub, maybe, maybe).map(([condition, whenValid, whenInvalid]) => {
    const schema: JsonObject = { if: condition };
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword.
    if (whenValid !== undefined) schema.then = whenValid;
    if (whenInvalid !== undefined) schema.else = whenInvalid;
    return schema;
  });
}

/** One keyword group per arbitrary; a node merges one to three of them. */
function fragments(dialect: GeneratedDialect, sub: Sub, refs: boolean): fc.Arbitrary<JsonObject>[] {
  const record = (keys: fc.Arbitrary<string[]>): fc.Arbitrary<JsonObject> =>
    keys.chain((names) =>
      fc.tuple(...names.map(() => sub)).map((schemas) => Object.fromEntries(names.map((name, i) => [name, schemas[i]!]))),
    );
  const schemaMap = record(namesArb);
  const common: fc.Arbitrary<JsonObject>[] = [
    fc
      .oneof(fc.constantFrom(...typeNames), fc.uniqueArray(fc.constantFrom(...typeNames), { minLength: 1, maxLength: 3 }))
      .map((type) => ({ type })),
    fc.record(
      {
        properties: schemaMap,
        required: namesArb,
        additionalProperties: fc.oneof(fc.constant(false), sub),
        patternProperties: fc.tuple(patternArb, sub).map(([pattern, schema]) => ({ [pattern]: schema })),
      },
      { requiredKeys: ['properties'] },
    ),
    namesArb.map((required) => ({ required })),
    fc.record({ minProperties: smallCount, maxProperties: smallCount }, { requiredKeys: [] }),
    fc
      .oneof(
        patternArb.map((pattern) => ({ pattern })),
        smallCount.map((maxLength) => ({ maxLength })),
      )
      .map((propertyNames) => ({ propertyNames })),
    fc.record({ minItems: smallCount, maxItems: smallCount, uniqueItems: fc.boolean() }, { requiredKeys: [] }),
    fc.record(
      { minimum: numberArb, maximum: numberArb, exclusiveMinimum: numberArb, exclusiveMaximum: numberArb, multipleOf: multipleOfArb },
      { requiredKeys: [] },
    ),
    fc.record({ minLength: smallCount, maxLength: smallCount, pattern: patternArb }, { requiredKeys: [] }),
    fc
      .uniqueArray(fc.oneof(scalarArb, jsonArb), { minLength: 1, maxLength: 4, selector: (value) => JSON.stringify(value) })
      .map((values) => ({
        enum: values,
      })),
    fc.oneof(scalarArb, jsonArb).map((value) => ({ const: value })),
    fc.array(sub, { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
    fc.array(sub, { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(sub, { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    sub.map((not) => ({ not })),
    conditional(sub),
    fc.record({ contains: sub }),
  ];
  const modern: fc.Arbitrary<JsonObject>[] = [
    fc.record({ items: sub, prefixItems: fc.array(sub, { minLength: 1, maxLength: 3 }) }, { requiredKeys: [] }),
    fc.record({ contains: sub, minContains: smallCount, maxContains: smallCount }, { requiredKeys: ['contains'] }),
    fc.tuple(keyArb, namesArb).map(([key, names]) => ({ dependentRequired: { [key]: names } })),
    fc.tuple(keyArb, sub).map(([key, schema]) => ({ dependentSchemas: { [key]: schema } })),
    fc.oneof(fc.constant(false), sub).map((unevaluatedProperties) => ({ unevaluatedProperties })),
    fc.oneof(fc.constant(false), sub).map((unevaluatedItems) => ({ unevaluatedItems })),
    // unevaluated* beside the applicators whose annotations it must (and must not) see.
    fc
      .tuple(
        fc.constantFrom('allOf', 'anyOf', 'oneOf'),
        fc.array(sub, { minLength: 1, maxLength: 2 }),
        fc.boolean(),
        fc.oneof(fc.constant(false), sub),
      )
      .map(([applicator, branches, onItems, unevaluated]) => ({
        [applicator]: branches,
        [onItems ? 'unevaluatedItems' : 'unevaluatedProperties']: unevaluated,
      })),
    fc
      .tuple(conditional(sub), fc.oneof(fc.constant(false), sub))
      .map(([schema, unevaluatedProperties]) => ({ ...schema, unevaluatedProperties })),
  ];
  const draft07: fc.Arbitrary<JsonObject>[] = [
    fc.record(
      { items: fc.oneof(sub, fc.array(sub, { minLength: 1, maxLength: 3 })), additionalItems: fc.oneof(fc.constant(false), sub) },
      { requiredKeys: ['items'] },
    ),
    fc.tuple(keyArb, fc.oneof(namesArb, sub)).map(([key, dependency]) => ({ dependencies: { [key]: dependency } })),
  ];
  const ref = refs ? [fc.constantFrom(...definitionNames).map((name) => ({ $ref: refTo(dialect, name) }))] : [];
  return [...common, ...(dialect === '2020-12' ? modern : draft07), ...ref];
}

/** The pointer a generated `$ref` uses for a definition. */
export function refTo(dialect: GeneratedDialect, name: string): string {
  return dialect === '2020-12' ? `#/$defs/${name}` : `#/definitions/${name}`;
}

/** A subschema of at most `depth` levels; `refs` allows `$ref`s to the root's definitions (never from inside them). */
function node(dialect: GeneratedDialect, depth: number, refs: boolean): Sub {
  if (depth <= 0) {
    return fc.oneof(
      fc.boolean(),
      fc.constant({}),
      fc.constantFrom(...typeNames).map((type) => ({ type })),
    );
  }
  const sub = node(dialect, depth - 1, refs);
  const groups = fragments(dialect, sub, refs);
  const merged = fc.array(fc.oneof(...groups), { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as JsonObject);
  const recursive = refs
    ? [fc.record({ type: fc.constant('array'), items: fc.constant({ $ref: '#' }) }).map((schema) => schema as JsonObject)]
    : [];
  return fc.oneof(
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 8, arbitrary: merged },
    ...recursive.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/**
 * A root schema in `dialect`: keyword groups merged at each level, definitions for `$ref`, and for draft-07 an
 * explicit `$schema`. Sometimes the root is a boolean.
 */
export function schemaArbitrary(dialect: GeneratedDialect, depth = 3): fc.Arbitrary<Schema> {
  const definitions = fc.tuple(...definitionNames.map(() => node(dialect, depth - 1, false)));
  const body = node(dialect, depth, true);
  const root = fc.tuple(body, definitions).map(([schema, defs]): Schema => {
    // In draft-07 a `$ref` hides its siblings, `definitions` included: keep it one level down.
    const hidesSiblings = dialect === 'draft-07' && typeof schema !== 'boolean' && '$ref' in schema;
    const object: JsonObject =
      typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : hidesSiblings ? { allOf: [schema] } : { ...schema };
    object[dialect === '2020-12' ? '$defs' : 'definitions'] = Object.fromEntries(definitionNames.map((name, i) => [name, defs[i]!]));
    if (dialect === 'draft-07') object.$schema = dialectUris['draft-07'];
    return object;
  });
  return fc.oneof({ weight: 1, arbitrary: fc.boolean() }, { weight: 30, arbitrary: root });
}

/** Every property name the generator uses, for instance builders. */
export const generatedNames: readonly string[] = propertyNames;

export type { Json, JsonObject };
