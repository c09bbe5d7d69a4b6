// Schemas whose property names are JSON Schema keywords, Object.prototype names and pointer/URI-special
// characters (issue 20, item 4): the names sit at every depth, under `properties`, literal-anchored
// `patternProperties`, `dependencies` (draft-07, schema and array forms), `dependentSchemas`, `dependentRequired`
// and as `$defs`/`definitions` names reached by JSON-pointer-escaped `$ref`s. Instances use the same names.
import fc from 'fast-check';
import type { Json, JsonObject } from './json-values.ts';
import { dialectUris, type GeneratedDialect, type Schema } from './schema-arbitrary.ts';

/** Keys validators have mistaken for keywords, prototype members or pointer syntax. */
export const trickyNames = [
  '$ref',
  '$id',
  '$anchor',
  '$schema',
  'constructor',
  '__proto__',
  'toString',
  'type',
  'enum',
  'format',
  'required',
  'properties',
  'a/b',
  'm~n',
  '50%',
  '~1',
] as const;

/** Definition names: tricky ones, so each `$ref` needs `~0`, `~1` or `%25` escaping. */
export const trickyDefinitionNames = ['$ref', 'constructor', '__proto__', 'a/b', 'm~n', '50%', '~1', 'properties'] as const;

/** A JSON pointer token escaped (RFC 6901) and then made a URI fragment (RFC 3986: `%` becomes `%25`). */
export function pointerToken(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('%', '%25');
}

export function trickyRefTo(dialect: GeneratedDialect, name: string): string {
  return `#/${dialect === '2020-12' ? '$defs' : 'definitions'}/${pointerToken(name)}`;
}

/** Every `$ref` the keyword-key generator may write. */
export const trickyRefs: readonly string[] = (['2020-12', 'draft-07'] as const).flatMap((dialect) =>
  trickyDefinitionNames.map((name) => trickyRefTo(dialect, name)),
);

/** A regular expression matching exactly `name` (escaped, anchored). */
export const literalPattern = (name: string): string => `^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;

const nameArb = fc.constantFrom(...trickyNames);
const namesArb = fc.uniqueArray(nameArb, { minLength: 1, maxLength: 3 });
/** Leaf values: a few scalars, one of them past 2^53 (same double on both sides, so comparisons stay exact). */
const leafValues: readonly Json[] = [null, true, 0, 1, 2.5, 2 ** 60, '', 'a', '$ref', 'constructor'];
const leafValueArb = fc.constantFrom(...leafValues);

/** Builds an object from entries as own data properties (`__proto__` included). */
const objectOf = (entries: readonly (readonly [string, Json])[]): JsonObject => Object.fromEntries(entries) as JsonObject;

type Sub = fc.Arbitrary<Schema>;

function mapOf(names: fc.Arbitrary<readonly string[]>, value: fc.Arbitrary<Json>): fc.Arbitrary<JsonObject> {
  return names.chain((keys) => fc.tuple(...keys.map(() => value)).map((values) => objectOf(keys.map((key, i) => [key, values[i]!]))));
}

function node(dialect: GeneratedDialect, depth: number, refs: boolean): Sub {
  const leaf: Sub = fc.oneof(
    fc.boolean(),
    fc.constantFrom('null', 'boolean', 'integer', 'number', 'string', 'object').map((type) => ({ type })),
    leafValueArb.map((value) => ({ const: value })),
    namesArb.map((required) => ({ required })),
    ...(refs ? [fc.constantFrom(...trickyDefinitionNames).map((name) => ({ $ref: trickyRefTo(dialect, name) }))] : []),
  );
  if (depth <= 0) return leaf;
  const sub = node(dialect, depth - 1, refs);
  const groups: fc.Arbitrary<JsonObject>[] = [
    mapOf(namesArb, sub).map((properties) => ({ properties })),
    fc.record(
      { properties: mapOf(namesArb, sub), additionalProperties: fc.oneof(fc.constant(false), sub) },
      { requiredKeys: ['properties'] },
    ),
    fc.tuple(nameArb, sub).map(([name, schema]) => ({ patternProperties: objectOf([[literalPattern(name), schema]]) })),
    namesArb.map((required) => ({ required })),
    fc.constantFrom('object', 'string').map((type) => ({ type })),
    fc.uniqueArray(leafValueArb, { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
    fc.array(sub, { minLength: 1, maxLength: 2 }).map((anyOf) => ({ anyOf })),
    sub.map((not) => ({ not })),
  ];
  if (dialect === '2020-12') {
    groups.push(mapOf(namesArb, sub).map((dependentSchemas) => ({ dependentSchemas })));
    groups.push(mapOf(namesArb, namesArb as fc.Arbitrary<Json>).map((dependentRequired) => ({ dependentRequired })));
  } else {
    groups.push(mapOf(namesArb, fc.oneof(sub, namesArb as fc.Arbitrary<Json>)).map((dependencies) => ({ dependencies })));
  }
  const merged = fc.array(fc.oneof(...groups), { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as JsonObject);
  return fc.oneof({ weight: 1, arbitrary: leaf }, { weight: 4, arbitrary: merged });
}

/** A root schema with keyword-named keys everywhere and tricky-named definitions its `$ref`s point into. */
export function keywordKeySchemaArbitrary(dialect: GeneratedDialect, depth = 3): fc.Arbitrary<Schema> {
  const definitions = fc.tuple(...trickyDefinitionNames.map(() => node(dialect, 1, false)));
  return fc.tuple(node(dialect, depth, true), definitions).map(([body, defs]) => {
    const hidesSiblings = dialect === 'draft-07' && typeof body !== 'boolean' && '$ref' in body;
    const root: JsonObject = typeof body === 'boolean' ? (body ? {} : { not: {} }) : hidesSiblings ? { allOf: [body] } : { ...body };
    root[dialect === '2020-12' ? '$defs' : 'definitions'] = objectOf(trickyDefinitionNames.map((name, i) => [name, defs[i]!]));
    if (dialect === 'draft-07') root.$schema = dialectUris['draft-07'];
    return root;
  });
}

/** Instances built from the same names: objects (nested up to three levels) with tricky keys and leaf values. */
export const keywordKeyInstanceArb: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    leafValueArb,
    fc.uniqueArray(fc.tuple(nameArb, tie('value')), { maxLength: 4, selector: ([key]) => key }).map((entries) => objectOf(entries)),
  ),
})).value;
