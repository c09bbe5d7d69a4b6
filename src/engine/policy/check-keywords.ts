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

/**
 * Checks the JSON types of the assertion keywords a dialect fixes. Returns `keyword: reason` for the first
 * wrong one, or undefined. Subschema-holding keywords are checked by the walker.
 */
export function checkKeywordTypes(node: Record<string, unknown>, dialect: Dialect): string | undefined {
  const type = node.type;
  // The common case, one name, without a list and a set to build for every subschema.
  if (typeof type === 'string') {
    if (!typeNames.has(type)) return `type: ${JSON.stringify(type)} is not a JSON Schema type name`;
  } else if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (names.length === 0) return 'type: an empty list allows nothing';
    for (const name of names) {
      if (typeof name !== 'string' || !typeNames.has(name)) {
        return `type: ${JSON.stringify(name)} is not a JSON Schema type name`;
      }
    }
    if (new Set(names).size !== names.length) return 'type: names repeat';
  }
  for (const keyword of ['minimum', 'maximum']) {
    if (node[keyword] !== undefined && typeof node[keyword] !== 'number')
      return `${keyword}: want a number, got ${jsonType(node[keyword])}`;
  }
  for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum']) {
    const value = node[keyword];
    if (value === undefined) continue;
    const want = dialect === 'draft-04' ? 'boolean' : 'number';
    if (typeof value !== want) return `${keyword}: want a ${want} in ${dialect}, got ${jsonType(value)}`;
  }
  if (node.multipleOf !== undefined && !(typeof node.multipleOf === 'number' && node.multipleOf > 0)) {
    return 'multipleOf: want a number greater than 0';
  }
  for (const keyword of nonNegativeIntegers) {
    const value = node[keyword];
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
      return `${keyword}: want a non-negative integer, got ${JSON.stringify(value)}`;
    }
  }
  // A boolean `required` is draft-03 syntax; the walker drops it with a warning.
  if (node.required !== undefined && typeof node.required !== 'boolean' && !isStringArray(node.required)) {
    return 'required: want an array of strings';
  }
  if (node.enum !== undefined && !Array.isArray(node.enum)) return `enum: want an array, got ${jsonType(node.enum)}`;
  if (node.uniqueItems !== undefined && typeof node.uniqueItems !== 'boolean') return 'uniqueItems: want a boolean';
  for (const keyword of ['pattern', 'format', '$ref', '$anchor', '$comment']) {
    if (node[keyword] !== undefined && typeof node[keyword] !== 'string')
      return `${keyword}: want a string, got ${jsonType(node[keyword])}`;
  }
  const idKeyword = dialect === 'draft-04' ? 'id' : '$id';
  if (node[idKeyword] !== undefined && typeof node[idKeyword] !== 'string') return `${idKeyword}: want a string`;
  if (node.dependentRequired !== undefined) {
    if (!isObject(node.dependentRequired) || !Object.values(node.dependentRequired).every(isStringArray)) {
      return 'dependentRequired: want an object of string arrays';
    }
  }
  if (node.$recursiveAnchor !== undefined && typeof node.$recursiveAnchor !== 'boolean') return '$recursiveAnchor: want a boolean';
  if (node.$recursiveRef !== undefined && node.$recursiveRef !== '#') return '$recursiveRef: only "#" is defined';
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
    const value = node[key];
    if (value === undefined || keywordHolds(key, value, dialect)) continue;
    return false;
  }
  return true;
}

/** One keyword's value as `checkKeywordTypes` wants it; true for a key it does not check. */
function keywordHolds(key: string, value: unknown, dialect: Dialect): boolean {
  switch (key) {
    case 'type':
      return typeof value === 'string' ? typeNames.has(value) : Array.isArray(value) && typeListHolds(value);
    case 'minimum':
    case 'maximum':
      return typeof value === 'number';
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof value === (dialect === 'draft-04' ? 'boolean' : 'number');
    case 'multipleOf':
      return typeof value === 'number' && value > 0;
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
    case 'minContains':
    case 'maxContains':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'required':
      return typeof value === 'boolean' || isStringArray(value);
    case 'enum':
      return Array.isArray(value);
    case 'uniqueItems':
    case '$recursiveAnchor':
      return typeof value === 'boolean';
    case 'pattern':
    case 'format':
    case '$ref':
    case '$anchor':
    case '$comment':
      return typeof value === 'string';
    case 'id':
      return dialect !== 'draft-04' || typeof value === 'string';
    case '$id':
      return dialect === 'draft-04' || typeof value === 'string';
    case 'dependentRequired':
      return isObject(value) && Object.values(value).every(isStringArray);
    case '$recursiveRef':
      return value === '#';
    default:
      return true;
  }
}

function typeListHolds(names: readonly unknown[]): boolean {
  if (names.length === 0) return false;
  for (const name of names) if (typeof name !== 'string' || !typeNames.has(name)) return false;
  return new Set(names).size === names.length;
}
