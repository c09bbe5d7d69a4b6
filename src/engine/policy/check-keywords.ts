import type { Dialect } from '../../protocol/dialect.ts';
import { isJsonObject as isObject } from '../json/is-json-object.ts';
import { jsonType } from '../json/json-type.ts';

const typeNames = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

const nonNegativeIntegers: readonly string[] = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];

const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** What is wrong with one keyword's value in a dialect, or undefined. */
type Rule = (value: unknown, dialect: Dialect) => string | undefined;

function typeRule(type: unknown): string | undefined {
  // The common case, one name, without a list and a set to build for every subschema.
  if (typeof type === 'string') return typeNames.has(type) ? undefined : `type: ${JSON.stringify(type)} is not a JSON Schema type name`;
  const names = Array.isArray(type) ? type : [type];
  if (names.length === 0) return 'type: an empty list allows nothing';
  for (const name of names) {
    if (typeof name !== 'string' || !typeNames.has(name)) return `type: ${JSON.stringify(name)} is not a JSON Schema type name`;
  }
  return new Set(names).size !== names.length ? 'type: names repeat' : undefined;
}

const numberRule =
  (keyword: string): Rule =>
  (value) =>
    typeof value === 'number' ? undefined : `${keyword}: want a number, got ${jsonType(value)}`;
const exclusiveRule =
  (keyword: string): Rule =>
  (value, dialect) => {
    const want = dialect === 'draft-04' ? 'boolean' : 'number';
    return typeof value === want ? undefined : `${keyword}: want a ${want} in ${dialect}, got ${jsonType(value)}`;
  };
const countRule =
  (keyword: string): Rule =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0
      ? undefined
      : `${keyword}: want a non-negative integer, got ${JSON.stringify(value)}`;
const stringRule =
  (keyword: string): Rule =>
  (value) =>
    typeof value === 'string' ? undefined : `${keyword}: want a string, got ${jsonType(value)}`;
/** `$id` (or draft-04's `id`): checked only in the dialects where it is the identifier. */
const idRule =
  (keyword: string, inDraft4: boolean): Rule =>
  (value, dialect) =>
    (dialect === 'draft-04') !== inDraft4 || typeof value === 'string' ? undefined : `${keyword}: want a string`;

/** Every keyword checked, in the order `checkKeywordTypes` reports them: the first wrong one is named. */
const rules: readonly (readonly [string, Rule])[] = [
  ['type', typeRule],
  ['minimum', numberRule('minimum')],
  ['maximum', numberRule('maximum')],
  ['exclusiveMinimum', exclusiveRule('exclusiveMinimum')],
  ['exclusiveMaximum', exclusiveRule('exclusiveMaximum')],
  ['multipleOf', (value) => (typeof value === 'number' && value > 0 ? undefined : 'multipleOf: want a number greater than 0')],
  ...nonNegativeIntegers.map((keyword) => [keyword, countRule(keyword)] as const),
  // A boolean `required` is draft-03 syntax; the walker drops it with a warning.
  ['required', (value) => (typeof value === 'boolean' || isStringArray(value) ? undefined : 'required: want an array of strings')],
  ['enum', (value) => (Array.isArray(value) ? undefined : `enum: want an array, got ${jsonType(value)}`)],
  ['uniqueItems', (value) => (typeof value === 'boolean' ? undefined : 'uniqueItems: want a boolean')],
  ...['pattern', 'format', '$ref', '$anchor', '$comment'].map((keyword) => [keyword, stringRule(keyword)] as const),
  ['id', idRule('id', true)],
  ['$id', idRule('$id', false)],
  [
    'dependentRequired',
    (value) =>
      isObject(value) && Object.values(value).every(isStringArray) ? undefined : 'dependentRequired: want an object of string arrays',
  ],
  ['$recursiveAnchor', (value) => (typeof value === 'boolean' ? undefined : '$recursiveAnchor: want a boolean')],
  ['$recursiveRef', (value) => (value === '#' ? undefined : '$recursiveRef: only "#" is defined')],
];
const ruleOf: ReadonlyMap<string, Rule> = new Map(rules);

/**
 * Checks the JSON types of the assertion keywords a dialect fixes. Returns `keyword: reason` for the first
 * wrong one, or undefined. Subschema-holding keywords are checked by the walker.
 */
export function checkKeywordTypes(node: Record<string, unknown>, dialect: Dialect): string | undefined {
  for (const [keyword, rule] of rules) {
    const value = node[keyword];
    if (value === undefined) continue;
    const wrong = rule(value, dialect);
    if (wrong !== undefined) return wrong;
  }
  return undefined;
}

/**
 * Whether `checkKeywordTypes` would find nothing wrong, reading only the keys the node has (`keys`, its own keys,
 * as the engine's copy holds no inherited ones): a subschema has a few keywords of the thirty checked. Callers ask
 * `checkKeywordTypes` for the message when this is false, so the first wrong keyword is named as before.
 */
export function keywordTypesHold(node: Record<string, unknown>, keys: readonly string[], dialect: Dialect): boolean {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const rule = ruleOf.get(key);
    if (rule === undefined) continue;
    const value = node[key];
    if (value !== undefined && rule(value, dialect) !== undefined) return false;
  }
  return true;
}
