// Instances for a generated schema: half generic JSON, half derived from the schema's own keywords (its
// properties, bounds, enum members, branches and `$ref` targets), so both verdicts come up often.
import fc from 'fast-check';
import { isJsonObject } from '../../src/engine/json/index.ts';
import { type Json, type JsonObject, jsonArb, keyArb, numberArb, stringArb, stringOfLength } from './json-values.ts';
import type { Schema } from './schema-arbitrary.ts';

/** Resolves the generator's own `#`, `#/$defs/x` and `#/definitions/x` references. */
function resolve(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match || !isJsonObject(root)) return undefined;
  const holder = root[match[1]!];
  const target = isJsonObject(holder) ? holder[match[2]!] : undefined;
  return typeof target === 'boolean' || isJsonObject(target) ? target : undefined;
}

const asSchema = (value: Json | undefined): Schema | undefined => (typeof value === 'boolean' || isJsonObject(value) ? value : undefined);
const schemaList = (value: Json | undefined): Schema[] =>
  Array.isArray(value) ? value.map(asSchema).filter((item) => item !== undefined) : [];

/** Numbers next to a bound: the bound itself, one either side, and half a step either side. */
function near(bound: number): number[] {
  return [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5].filter((value) => Math.abs(value) <= 2 ** 53 - 1);
}

/** Values aimed at one schema: a list of candidate arbitraries, empty when the schema offers nothing to aim at. */
function candidates(root: Schema, schema: Schema, depth: number): fc.Arbitrary<Json>[] {
  if (typeof schema === 'boolean' || depth <= 0) return [];
  const derived = (sub: Json | undefined): fc.Arbitrary<Json> => {
    const target = asSchema(sub);
    return target === undefined ? jsonArb : instanceFor(root, target, depth - 1);
  };
  const out: fc.Arbitrary<Json>[] = [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(root, schema.$ref);
    if (target !== undefined) out.push(derived(target));
  }
  if ('const' in schema) out.push(fc.constant(schema.const as Json));
  if (Array.isArray(schema.enum) && schema.enum.length > 0) out.push(fc.constantFrom(...schema.enum));
  const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']
    .map((keyword) => schema[keyword])
    .filter((value): value is number => typeof value === 'number');
  if (typeof schema.multipleOf === 'number') {
    const step = schema.multipleOf;
    out.push(fc.integer({ min: -4, max: 12 }).map((k) => k * step));
  }
  if (bounds.length > 0) out.push(fc.constantFrom(...bounds.flatMap(near)));
  const lengths = [schema.minLength, schema.maxLength].filter((value): value is number => typeof value === 'number');
  if (lengths.length > 0) {
    out.push(fc.constantFrom(...lengths.flatMap((length) => [length - 1, length, length + 1]).filter((n) => n >= 0)).chain(stringOfLength));
  }
  const object = objectFor(schema, derived);
  if (object) out.push(object);
  const array = arrayFor(schema, derived);
  if (array) out.push(array);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = schemaList(schema[keyword]);
    if (branches.length > 0) out.push(fc.constantFrom(...branches).chain((branch) => derived(branch)));
  }
  for (const keyword of ['if', 'then', 'else', 'not']) {
    if (keyword in schema) out.push(derived(schema[keyword]));
  }
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];
  for (const type of types) {
    if (type === 'integer') out.push(fc.integer({ min: -3, max: 12 }));
    if (type === 'number') out.push(numberArb);
    if (type === 'string') out.push(stringArb);
    if (type === 'boolean') out.push(fc.boolean());
    if (type === 'null') out.push(fc.constant(null));
  }
  return out;
}

/** An object with the schema's named properties (values aimed at their subschemas), some left out, some extra keys. */
function objectFor(schema: JsonObject, derived: (sub: Json | undefined) => fc.Arbitrary<Json>): fc.Arbitrary<Json> | undefined {
  const members: Record<string, fc.Arbitrary<Json>> = {};
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  for (const [name, sub] of Object.entries(properties)) members[name] = derived(sub);
  for (const holder of ['dependentRequired', 'dependentSchemas', 'dependencies']) {
    const map = schema[holder];
    if (isJsonObject(map)) for (const name of Object.keys(map)) members[name] ??= derived(asSchema(map[name]) ?? true);
  }
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name === 'string') members[name] ??= jsonArb;
  }
  const hasObjectKeywords = ['additionalProperties', 'unevaluatedProperties', 'patternProperties', 'propertyNames', 'minProperties'].some(
    (keyword) => keyword in schema,
  );
  if (Object.keys(members).length === 0 && !hasObjectKeywords) return undefined;
  const named = fc.record(members, { requiredKeys: [] }) as fc.Arbitrary<JsonObject>;
  const extra = fc.dictionary(keyArb, jsonArb, { maxKeys: 2 });
  return fc
    .tuple(named, extra, fc.boolean())
    .map(([picked, more, extraFirst]) => (extraFirst ? { ...more, ...picked } : { ...picked, ...more }));
}

/** An array aimed at the schema's `prefixItems`/tuple `items`, then items aimed at `items`/`additionalItems`/`contains`. */
function arrayFor(schema: JsonObject, derived: (sub: Json | undefined) => fc.Arbitrary<Json>): fc.Arbitrary<Json> | undefined {
  const prefix = schemaList(Array.isArray(schema.items) ? schema.items : schema.prefixItems);
  const rest = [schema.items, schema.additionalItems, schema.contains, schema.unevaluatedItems].filter(
    (sub) => asSchema(sub) !== undefined,
  ) as Json[];
  const arrayKeywords = ['uniqueItems', 'minItems', 'maxItems', 'minContains', 'maxContains'].some((keyword) => keyword in schema);
  if (prefix.length === 0 && rest.length === 0 && !arrayKeywords) return undefined;
  const head = fc.tuple(...prefix.map((sub) => derived(sub)));
  const tailItem = rest.length > 0 ? fc.constantFrom(...rest).chain((sub) => derived(sub)) : jsonArb;
  // Duplicates on purpose: `uniqueItems` should see equal members as often as distinct ones.
  const tail = fc.array(fc.oneof(tailItem, fc.constantFrom<Json>(0, 'a', { a: 1 })), { maxLength: 3 });
  return fc.tuple(head, tail, fc.nat({ max: prefix.length })).map(([first, more, cut]) => [...first.slice(0, cut), ...more]);
}

/** An instance for `schema` (inside document `root`): generic JSON or a value aimed at the schema's keywords. */
export function instanceFor(root: Schema, schema: Schema = root, depth = 3): fc.Arbitrary<Json> {
  const aimed = candidates(root, schema, depth);
  if (aimed.length === 0) return jsonArb;
  return fc.oneof({ weight: 1, arbitrary: jsonArb }, { weight: 3, arbitrary: fc.oneof(...aimed) });
}
