import type { Issue } from '../protocol/issue.ts';
import { describeValue } from './describe-value.ts';
import { authoredFormat } from './form-formats.ts';
import { jsonPath } from './json-path.ts';
import { jsonType } from './json-type.ts';
import type { LeafFailure } from './schema-validator-adapter.ts';
import { isFalseSchema } from './walk-schema.ts';

const propertyHolders = new Set(['properties', 'patternProperties']);
const propertyKeywords = new Set(['additionalProperties', 'unevaluatedProperties']);
const itemHolders = new Set(['items', 'prefixItems']);
const itemKeywords = new Set(['items', 'additionalItems', 'unevaluatedItems']);

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const has = (object: unknown, key: string): boolean => typeof object === 'object' && object !== null && Object.hasOwn(object, key);

/** Renders exact numbers; the engine passes one when an instance held integers past 2^53. */
export type ExactNumbers = (value: unknown) => string | undefined;

/**
 * Turns adapter leaf failures into issues with our own wording (never the library's): one per leaf, with
 * `required` and `dependentRequired` expanded per missing name.
 */
export function describeFailures(failures: readonly LeafFailure[], instance: unknown, exact?: ExactNumbers): Issue[] {
  const issues: Issue[] = [];
  for (const failure of failures) {
    const { segments, value } = resolveInstance(instance, failure.instancePath);
    const path = jsonPath(segments);
    const subject = failure.propertyName ? segments[segments.length - 1] : value;
    const prefix = failure.propertyName ? 'property name: ' : '';
    const keyword = failure.keyword === 'not' && isFalseSchema(failure.schema) ? falseKeyword(failure.schemaPath) : failure.keyword;
    for (const message of messages(failure, subject, exact)) {
      issues.push({ path, keyword, message: prefix + message });
    }
  }
  return issues;
}

function messages(failure: LeafFailure, value: unknown, exact?: ExactNumbers): string[] {
  const schema = failure.schema;
  const show = (v: unknown): string => describeValue(v, exact);
  const bound = (keyword: string): string => show(schema[keyword]);
  const got = (): string => (typeof value === 'number' || typeof value === 'string' ? show(value) : jsonType(value));
  switch (failure.keyword) {
    case 'type':
      return [`got ${jsonType(value)}, want ${(failure.types ?? []).join(' or ')}`];
    case 'required':
      return missing(schema.required, value).map((name) => `missing required property ${JSON.stringify(name)}`);
    case 'dependentRequired':
    case 'dependencies':
      return dependencyMessages(schema[failure.keyword], value);
    case 'not':
      if (isFalseSchema(schema)) return [notAllowed(failure.schemaPath)];
      return ['matches a schema it must not match'];
    case 'const':
      return [`got ${show(value)}, want ${bound('const')}`];
    case 'enum': {
      const options = Array.isArray(schema.enum) ? schema.enum : [];
      const listed = options.slice(0, 8).map(show).join(', ');
      return [`got ${show(value)}, want one of ${listed}${options.length > 8 ? `, … (${options.length} in all)` : ''}`];
    }
    case 'minimum':
      return [`got ${got()}, want ${schema.exclusiveMinimum === true ? 'more than' : 'at least'} ${bound('minimum')}`];
    case 'maximum':
      return [`got ${got()}, want ${schema.exclusiveMaximum === true ? 'less than' : 'at most'} ${bound('maximum')}`];
    case 'exclusiveMinimum':
      return [`got ${got()}, want more than ${bound('exclusiveMinimum')}`];
    case 'exclusiveMaximum':
      return [`got ${got()}, want less than ${bound('exclusiveMaximum')}`];
    case 'multipleOf':
      return [`got ${got()}, want a multiple of ${bound('multipleOf')}`];
    case 'minLength':
      return [`got ${plural(length(value), 'character')}, want at least ${bound('minLength')}`];
    case 'maxLength':
      return [`got ${plural(length(value), 'character')}, want at most ${bound('maxLength')}`];
    case 'pattern':
      return [`does not match the pattern ${show(schema.pattern)}`];
    case 'format':
      return [`${got()} is not a valid ${authoredFormat(String(schema.format))}`];
    case 'minItems':
      return [`got ${plural(size(value), 'item')}, want at least ${bound('minItems')}`];
    case 'maxItems':
      return [`got ${plural(size(value), 'item')}, want at most ${bound('maxItems')}`];
    case 'uniqueItems':
      return ['items must be unique'];
    case 'minProperties':
      return [`got ${plural(size(value), 'property')}, want at least ${bound('minProperties')}`.replace('propertys', 'properties')];
    case 'maxProperties':
      return [`got ${plural(size(value), 'property')}, want at most ${bound('maxProperties')}`.replace('propertys', 'properties')];
    case 'contains':
      return ['no item matches the "contains" schema'];
    case 'minContains':
      return [`too few items match the "contains" schema, want at least ${bound('minContains')}`];
    case 'maxContains':
      return [`too many items match the "contains" schema, want at most ${bound('maxContains')}`];
    case 'anyOf':
    case 'oneOf': {
      const alternatives = failure.alternatives ?? { count: 0, matched: 0 };
      if (alternatives.matched === 0) return [`matches none of the ${alternatives.count} allowed alternatives`];
      return [`matches ${alternatives.matched} of the alternatives, want exactly one`];
    }
    default:
      return [`does not satisfy "${failure.keyword}"`];
  }
}

/** The keyword that held a `false` subschema, so an issue says `additionalProperties` rather than `not`. */
function falseKeyword(schemaPath: readonly string[]): string {
  const last = schemaPath[schemaPath.length - 1] ?? '';
  const before = schemaPath[schemaPath.length - 2] ?? '';
  if (propertyKeywords.has(last) || itemKeywords.has(last)) return last;
  if (propertyHolders.has(before) || itemHolders.has(before)) return before;
  return 'false';
}

function notAllowed(schemaPath: readonly string[]): string {
  const last = schemaPath[schemaPath.length - 1] ?? '';
  const before = schemaPath[schemaPath.length - 2] ?? '';
  if (propertyKeywords.has(last) || propertyHolders.has(before)) return 'property not allowed';
  if (itemKeywords.has(last) || itemHolders.has(before)) return 'item not allowed';
  return 'no value is allowed here';
}

function missing(required: unknown, value: unknown): string[] {
  if (!Array.isArray(required)) return [];
  return required.filter((name): name is string => typeof name === 'string' && !has(value, name));
}

function dependencyMessages(dependencies: unknown, value: unknown): string[] {
  const out: string[] = [];
  if (typeof dependencies !== 'object' || dependencies === null) return out;
  for (const [name, needs] of Object.entries(dependencies)) {
    if (!has(value, name) || !Array.isArray(needs)) continue;
    for (const need of missing(needs, value)) out.push(`property ${JSON.stringify(name)} requires property ${JSON.stringify(need)}`);
  }
  return out;
}

const length = (value: unknown): number => (typeof value === 'string' ? [...value].length : 0);
const size = (value: unknown): number =>
  Array.isArray(value) ? value.length : typeof value === 'object' && value !== null ? Object.keys(value).length : 0;

/** Follows pointer segments through the instance, turning array indexes into numbers for the path. */
function resolveInstance(instance: unknown, pointer: readonly string[]): { segments: (string | number)[]; value: unknown } {
  const segments: (string | number)[] = [];
  let value = instance;
  for (const segment of pointer) {
    if (Array.isArray(value)) {
      const i = Number(segment);
      segments.push(i);
      value = value[i];
    } else {
      segments.push(segment);
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return { segments, value };
}
