import type { Issue } from '../../protocol/issue.ts';
import { authoredFormat } from '../forms/form-formats.ts';
import { jsonPath } from '../json/json-path.ts';
import { jsonType } from '../json/json-type.ts';
import { keywordSegments } from '../schema/keyword-segments.ts';
import { isFalseSchema } from '../schema/schema-types.ts';
import type { LeafFailure } from '../schema/schema-validator-adapter.ts';
import { describeValue } from './describe-value.ts';

const propertyHolders = new Set(['properties', 'patternProperties']);
const propertyKeywords = new Set(['additionalProperties', 'unevaluatedProperties']);
const itemHolders = new Set(['items', 'prefixItems']);
const itemKeywords = new Set(['items', 'additionalItems', 'unevaluatedItems']);

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const has = (object: unknown, key: string): boolean => typeof object === 'object' && object !== null && Object.hasOwn(object, key);

/** Renders exact numbers; the engine passes one when an instance held integers past 2^53. */
export type ExactNumbers = (value: unknown) => string | undefined;

/**
 * Turns adapter leaf failures into issues with our own wording (never the library's): one per leaf. A
 * `required`-like leaf names its one missing property; without that name (another adapter) it is expanded per
 * missing name.
 */
export function describeFailures(failures: readonly LeafFailure[], instance: unknown, exact?: ExactNumbers): Issue[] {
  const issues: Issue[] = [];
  for (const failure of failures) describeOne(failure, instance, exact, true, issues);
  return issues;
}

/** Adds the issues of one failure to `out` (one, except a `required`-like leaf without its missing name). */
function describeOne(failure: LeafFailure, instance: unknown, exact: ExactNumbers | undefined, nested: boolean, out: Issue[]): void {
  const { segments, value, objectsOnly } = resolveInstance(instance, failure.instancePath);
  const path = pathOf(failure.instancePath, segments, objectsOnly);
  const subject = failure.propertyName ? segments[segments.length - 1] : value;
  const prefix = failure.propertyName ? 'property name: ' : '';
  const keyword = failure.keyword === 'not' && isFalseSchema(failure.schema) ? falseKeyword(failure.schemaPath) : failure.keyword;
  const close = nested ? closestNote(failure, instance, exact) : '';
  const lines = described(failure, subject) ? messages(failure, subject, exact) : [];
  // Fail closed: a failure is never dropped for want of words. Its leaf says which keyword failed, and where.
  if (lines.length === 0) lines.push(undescribed(failure.keyword));
  for (const message of lines) out.push({ path, keyword, message: prefix + message + close });
}

/** The one wording for a failure there is nothing more to say about (`does not satisfy "required"`). */
const undescribed = (keyword: string): string => `does not satisfy ${JSON.stringify(keyword)}`;

/**
 * Keywords whose message quotes the keyword's own value. Without it (a subschema the adapter could not locate)
 * the message would say `want at least undefined`; such a leaf gets the plain wording instead.
 */
const quotesValue = new Set([
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
]);

/** Whether the leaf holds what its message needs: the value (the instance has it), the types, the bound. */
function described(failure: LeafFailure, subject: unknown): boolean {
  if (subject === undefined) return false;
  if (failure.keyword === 'type') return (failure.types ?? []).length > 0;
  return !quotesValue.has(failure.keyword) || has(failure.schema, failure.keyword);
}

/**
 * For an `anyOf`/`oneOf` that nothing matched, the first failure of the alternative that came closest (numbered
 * from 1, as people count), so the reason is not lost: ` (closest, #2: $.x: got string, want integer)`.
 */
function closestNote(failure: LeafFailure, instance: unknown, exact: ExactNumbers | undefined): string {
  const closest = failure.closest;
  const first = closest?.failures[0];
  if (closest === undefined || first === undefined) return '';
  const issues: Issue[] = [];
  describeOne(first, instance, exact, false, issues);
  const issue = issues[0];
  if (issue === undefined) return '';
  const more = closest.failures.length - 1;
  return ` (closest, #${closest.index + 1}: ${issue.path}: ${issue.message}${more > 0 ? `; ${plural(more, 'more issue')}` : ''})`;
}

function messages(failure: LeafFailure, value: unknown, exact?: ExactNumbers): string[] {
  const schema = failure.schema;
  switch (failure.keyword) {
    case 'type':
      return [`got ${jsonType(value)}, want ${(failure.types ?? []).join(' or ')}`];
    case 'required':
      if (failure.missing !== undefined) return [`missing required property ${JSON.stringify(failure.missing.name)}`];
      return missing(schema.required, value).map((name) => `missing required property ${JSON.stringify(name)}`);
    case 'dependentRequired':
    case 'dependencies': {
      const { name, requiredBy } = failure.missing ?? {};
      if (name !== undefined && requiredBy !== undefined) return [requires(requiredBy, name)];
      return dependencyMessages(schema[failure.keyword], value);
    }
    case 'not':
      if (isFalseSchema(schema)) return [notAllowed(failure.schemaPath)];
      return ['matches a schema it must not match'];
    case 'const':
      return [`got ${describeValue(value, exact)}, want ${describeValue(schema.const, exact)}`];
    case 'enum': {
      const options = Array.isArray(schema.enum) ? schema.enum : [];
      const listed = options
        .slice(0, 8)
        .map((option) => describeValue(option, exact))
        .join(', ');
      return [`got ${describeValue(value, exact)}, want one of ${listed}${options.length > 8 ? `, … (${options.length} in all)` : ''}`];
    }
    case 'minimum':
      return [
        `got ${got(value, exact)}, want ${schema.exclusiveMinimum === true ? 'more than' : 'at least'} ${describeValue(schema.minimum, exact)}`,
      ];
    case 'maximum':
      return [
        `got ${got(value, exact)}, want ${schema.exclusiveMaximum === true ? 'less than' : 'at most'} ${describeValue(schema.maximum, exact)}`,
      ];
    case 'exclusiveMinimum':
      return [`got ${got(value, exact)}, want more than ${describeValue(schema.exclusiveMinimum, exact)}`];
    case 'exclusiveMaximum':
      return [`got ${got(value, exact)}, want less than ${describeValue(schema.exclusiveMaximum, exact)}`];
    case 'multipleOf':
      return [`got ${got(value, exact)}, want a multiple of ${describeValue(schema.multipleOf, exact)}`];
    case 'minLength':
      return [`got ${plural(length(value), 'character')}, want at least ${describeValue(schema.minLength, exact)}`];
    case 'maxLength':
      return [`got ${plural(length(value), 'character')}, want at most ${describeValue(schema.maxLength, exact)}`];
    case 'pattern':
      return [`does not match the pattern ${describeValue(schema.pattern, exact)}`];
    case 'format':
      return [`${got(value, exact)} is not a valid ${authoredFormat(String(schema.format))}`];
    case 'minItems':
      return [`got ${plural(size(value), 'item')}, want at least ${describeValue(schema.minItems, exact)}`];
    case 'maxItems':
      return [`got ${plural(size(value), 'item')}, want at most ${describeValue(schema.maxItems, exact)}`];
    case 'uniqueItems':
      return ['items must be unique'];
    case 'minProperties':
      return [
        `got ${plural(size(value), 'property')}, want at least ${describeValue(schema.minProperties, exact)}`.replace(
          'propertys',
          'properties',
        ),
      ];
    case 'maxProperties':
      return [
        `got ${plural(size(value), 'property')}, want at most ${describeValue(schema.maxProperties, exact)}`.replace(
          'propertys',
          'properties',
        ),
      ];
    case 'contains':
      return ['no item matches the "contains" schema'];
    case 'minContains':
      return [`too few items match the "contains" schema, want at least ${describeValue(schema.minContains, exact)}`];
    case 'maxContains':
      return [`too many items match the "contains" schema, want at most ${describeValue(schema.maxContains, exact)}`];
    case 'anyOf':
    case 'oneOf': {
      const alternatives = failure.alternatives ?? { count: 0, matched: 0 };
      if (alternatives.matched === 0) return [`matches none of the ${alternatives.count} allowed alternatives`];
      return [`matches ${alternatives.matched} of the alternatives, want exactly one`];
    }
    case 'maxIssues':
      // The adapter stopped collecting at the cap: how many more there are is not known.
      return ['more issues not shown'];
    case 'incomplete':
      return ["only the first issues are listed: listing every one would overflow the runtime's call stack"];
    default:
      return [`does not satisfy "${failure.keyword}"`];
  }
}

/**
 * Where a `false` subschema sits: under a keyword of its own (`additionalProperties`, `items`), or as a member of
 * one (`properties/x`, `prefixItems/0`). Read by place, so a property named "items" is a property.
 */
function falseHolder(schemaPath: readonly string[]): FalseHolder {
  const known = falseHolders.get(schemaPath);
  if (known !== undefined) return known;
  const keywords = keywordSegments(schemaPath);
  const last = schemaPath.length - 1;
  let holder: FalseHolder;
  if (last < 0) holder = { keyword: '', member: false };
  else if (keywords[last]) holder = { keyword: schemaPath[last] as string, member: false };
  else holder = { keyword: schemaPath[last - 1] ?? '', member: true };
  if (Object.isFrozen(schemaPath)) falseHolders.set(schemaPath, holder);
  return holder;
}

interface FalseHolder {
  readonly keyword: string;
  readonly member: boolean;
}

/**
 * `falseHolder` by path: a leaf's path is read for its keyword and again for its message, and the adapter hands the
 * same frozen path to every leaf at one place, call after call. Only a frozen path is kept (no one can change it
 * under the answer), weakly: a path no leaf holds any more is let go.
 */
const falseHolders = new WeakMap<readonly string[], FalseHolder>();

/** The keyword that held a `false` subschema, so an issue says `additionalProperties` rather than `not`. */
function falseKeyword(schemaPath: readonly string[]): string {
  const { keyword, member } = falseHolder(schemaPath);
  if (member ? propertyHolders.has(keyword) || itemHolders.has(keyword) : propertyKeywords.has(keyword) || itemKeywords.has(keyword)) {
    return keyword;
  }
  return 'false';
}

function notAllowed(schemaPath: readonly string[]): string {
  const { keyword, member } = falseHolder(schemaPath);
  if (member ? propertyHolders.has(keyword) : propertyKeywords.has(keyword)) return 'property not allowed';
  if (member ? itemHolders.has(keyword) : itemKeywords.has(keyword)) return 'item not allowed';
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
    for (const need of missing(needs, value)) out.push(requires(name, need));
  }
  return out;
}

/** A number or string as written (shortened), anything else by its JSON type. */
const got = (value: unknown, exact?: ExactNumbers): string =>
  typeof value === 'number' || typeof value === 'string' ? describeValue(value, exact) : jsonType(value);
const requires = (name: string, need: string): string => `property ${JSON.stringify(name)} requires property ${JSON.stringify(need)}`;
const length = (value: unknown): number => (typeof value === 'string' ? [...value].length : 0);
const size = (value: unknown): number =>
  Array.isArray(value) ? value.length : typeof value === 'object' && value !== null ? Object.keys(value).length : 0;

/**
 * Follows pointer segments through the instance, turning array indexes into numbers for the path. Through objects
 * only, the segments are the pointer's own (no copy) and `objectsOnly` says so.
 */
function resolveInstance(
  instance: unknown,
  pointer: readonly string[],
): { segments: readonly (string | number)[]; value: unknown; objectsOnly: boolean } {
  let segments: (string | number)[] | undefined;
  let value = instance;
  for (let i = 0; i < pointer.length; i++) {
    const segment = pointer[i] as string;
    if (Array.isArray(value)) {
      segments ??= pointer.slice(0, i);
      const index = Number(segment);
      segments.push(index);
      value = value[index];
    } else {
      segments?.push(segment);
      value = has(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return { segments: segments ?? pointer, value, objectsOnly: segments === undefined };
}

/**
 * The JSON path of a pointer that runs through objects only, kept by its frozen segments: the adapter hands the
 * same frozen pointer to every leaf at one place, call after call. Weakly, like `falseHolders`.
 */
const objectPaths = new WeakMap<readonly string[], string>();

function pathOf(pointer: readonly string[], segments: readonly (string | number)[], objectsOnly: boolean): string {
  if (pointer.length === 0) return '$';
  if (!objectsOnly || !Object.isFrozen(pointer)) return jsonPath(segments);
  let path = objectPaths.get(pointer);
  if (path === undefined) {
    path = jsonPath(segments);
    objectPaths.set(pointer, path);
  }
  return path;
}
