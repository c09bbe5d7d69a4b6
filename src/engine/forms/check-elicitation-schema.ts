import type { Issue } from '../../protocol/issue.ts';
import type { Refused, ValidationOutcome } from '../../protocol/outcome.ts';
import type { SchemaVerdict } from '../../protocol/tool.ts';
import { jsonObjectPrototype } from '../json/copy-json.ts';
import { isJsonObject as isObject } from '../json/is-json-object.ts';
import { jsonPath } from '../json/json-path.ts';
import { jsonType } from '../json/json-type.ts';
import { truncate } from '../json/truncate.ts';

type Json = Record<string, unknown>;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isOptions = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && value.every((o) => isObject(o) && typeof o.const === 'string' && typeof o.title === 'string');
const nonNegativeInteger = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Annotations any field may carry besides the spec's own keys. */
const annotations = ['title', 'description', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
const formats = new Set(['email', 'uri', 'date', 'date-time']);
const rootKeys = new Set(['type', 'properties', 'required', '$schema', 'title', 'description', '$comment', 'additionalProperties']);

/**
 * Whether an elicitation `requestedSchema` is the MCP spec's restricted subset (2025-11-25 `ElicitRequestFormParams`):
 * a flat object whose properties are strings (with the four form formats), numbers, integers, booleans, or one of
 * the enum forms (untitled, `oneOf` const/title, multi-select `items.enum` or `items.anyOf`, legacy `enumNames`).
 * Anything else is refused, so a form can always be rendered and checked.
 */
export function checkElicitationSchema(schema: unknown): SchemaVerdict {
  if (!isObject(schema)) return no(`requestedSchema must be an object, got ${jsonType(schema)}`);
  if (schema.type !== 'object') return no('requestedSchema must have "type": "object"');
  if (!isObject(schema.properties)) return no('requestedSchema must have "properties", an object');
  for (const key of Object.keys(schema)) {
    if (!rootKeys.has(key)) return no(`requestedSchema: "${truncate(key, 40)}" is not allowed in an elicitation form schema`);
  }
  if (schema.required !== undefined && !isStrings(schema.required)) return no('requestedSchema.required must be an array of strings');
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    return no('requestedSchema.additionalProperties may only be true or false');
  }
  for (const [name, field] of Object.entries(schema.properties)) {
    const problem = checkField(field);
    if (problem !== undefined) return no(`requestedSchema.properties[${JSON.stringify(truncate(name, 40))}]: ${problem}`);
  }
  return { status: 'accepted' };
}

function checkField(field: unknown): string | undefined {
  if (!isObject(field)) return `a field is an object, got ${jsonType(field)}`;
  const allowed = (keys: string[]): string | undefined => {
    const extra = Object.keys(field).find(
      (key) => key !== 'type' && key !== 'default' && !keys.includes(key) && !annotations.includes(key),
    );
    return extra === undefined ? undefined : `"${truncate(extra, 40)}" is not allowed for a ${String(field.type)} field`;
  };
  switch (field.type) {
    case 'string': {
      if (field.default !== undefined && typeof field.default !== 'string') return 'default must be a string';
      if (field.format !== undefined && !(typeof field.format === 'string' && formats.has(field.format))) {
        return 'format must be one of email, uri, date, date-time';
      }
      for (const key of ['minLength', 'maxLength'])
        if (field[key] !== undefined && !nonNegativeInteger(field[key])) return `${key} must be a non-negative integer`;
      if (field.enum !== undefined && !(isStrings(field.enum) && field.enum.length > 0)) return 'enum must be a non-empty array of strings';
      if (
        field.enumNames !== undefined &&
        !(isStrings(field.enumNames) && isStrings(field.enum) && field.enumNames.length === field.enum.length)
      ) {
        return 'enumNames must be strings, one per enum value';
      }
      if (field.oneOf !== undefined && !isOptions(field.oneOf)) return 'oneOf must list {"const": string, "title": string} options';
      return allowed(['format', 'minLength', 'maxLength', 'enum', 'enumNames', 'oneOf']);
    }
    case 'number':
    case 'integer':
      if (field.default !== undefined && typeof field.default !== 'number') return 'default must be a number';
      for (const key of ['minimum', 'maximum'])
        if (field[key] !== undefined && typeof field[key] !== 'number') return `${key} must be a number`;
      return allowed(['minimum', 'maximum']);
    case 'boolean':
      if (field.default !== undefined && typeof field.default !== 'boolean') return 'default must be a boolean';
      return allowed([]);
    case 'array': {
      const items = field.items;
      const untitled =
        isObject(items) && items.type === 'string' && isStrings(items.enum) && items.enum.length > 0 && Object.keys(items).length === 2;
      const titled =
        isObject(items) &&
        isOptions(items.anyOf) &&
        Object.keys(items).every((key) => key === 'anyOf' || key === 'type') &&
        (items.type ?? 'string') === 'string';
      if (!untitled && !titled)
        return 'an array field must be a multi-select: items {"type":"string","enum":[…]} or items {"anyOf":[{"const","title"}…]}';
      if (field.default !== undefined && !isStrings(field.default)) return 'default must be an array of strings';
      for (const key of ['minItems', 'maxItems'])
        if (field[key] !== undefined && !nonNegativeInteger(field[key])) return `${key} must be a non-negative integer`;
      return allowed(['items', 'minItems', 'maxItems', 'uniqueItems']);
    }
    default:
      return `type must be string, number, integer, boolean or array (multi-select), got ${JSON.stringify(field.type ?? null)}`;
  }
}

/** The form's defaults, by property name, to pre-fill a form and to complete an accepted answer. */
export function elicitationDefaults(schema: unknown): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  if (!isObject(schema) || !isObject(schema.properties)) return defaults;
  for (const [name, field] of Object.entries(schema.properties)) {
    // defineProperty: a field named __proto__ must stay a field.
    if (isObject(field) && field.default !== undefined)
      Object.defineProperty(defaults, name, { value: field.default, enumerable: true, writable: true, configurable: true });
  }
  return defaults;
}

/** How an `elicitation/create` request is handled, decided by its `mode` alone. */
export type ElicitationMode = { readonly mode: 'form' } | { readonly mode: 'url' } | { readonly mode: 'unknown'; readonly message: string };

/**
 * The request's mode, failing closed: absent or exactly `"form"` is a form (checked), exactly `"url"` passes
 * (its answer carries no content), and anything else (`"FORM"`, `null`, `1`) is refused to the server with
 * -32602, never relayed unchecked: a client would not agree with us on what it is.
 */
export function elicitationMode(params: unknown): ElicitationMode {
  const mode = isObject(params) ? params.mode : undefined;
  if (mode === undefined || mode === 'form') return { mode: 'form' };
  if (mode === 'url') return { mode: 'url' };
  const shown = typeof mode === 'string' ? JSON.stringify(truncate(mode, 40)) : jsonType(mode);
  return { mode: 'unknown', message: `unknown elicitation mode ${shown}: want "form" (or no mode) or "url"` };
}

/** An accepted answer, split into what the form asked for and the keys it never asked for. */
export interface SplitAnswer {
  /** The answer without the unasked keys: what the form's schema validates. */
  readonly asked: unknown;
  /** Keys of the answer that are not among the form's `properties`, in the answer's order. */
  readonly unasked: readonly string[];
}

/**
 * Finds the keys of an answer the form never asked for (docs/policy.md: they are refused, whatever
 * `additionalProperties` says: a form is its list of questions, and `isAdmin: true` was no answer to any). A
 * value that is not a plain object, or whose keys cannot be read, is passed on whole: validation refuses it.
 */
export function splitElicitationAnswer(schema: unknown, content: unknown): SplitAnswer {
  if (!isObject(content)) return { asked: content, unasked: [] };
  const proto = Object.getPrototypeOf(content);
  if (proto !== Object.prototype && proto !== null && proto !== jsonObjectPrototype) return { asked: content, unasked: [] };
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  try {
    const asked: Json = Object.create(null);
    const unasked: string[] = [];
    for (const key of Object.keys(content)) {
      const value = content[key];
      // A member that is `undefined` is no JSON member: it is neither sent nor checked.
      if (value === undefined) continue;
      // defineProperty: a field named __proto__ stays a field.
      if (Object.hasOwn(properties, key))
        Object.defineProperty(asked, key, { value, enumerable: true, writable: true, configurable: true });
      else unasked.push(key);
    }
    return { asked, unasked };
  } catch {
    return { asked: content, unasked: [] };
  }
}

/** The issue for a key the form never asked for: `$.isAdmin: property not asked for by the form`. */
export const unaskedIssue = (key: string): Issue => ({
  path: jsonPath([key]),
  keyword: 'properties',
  message: 'property not asked for by the form',
});

/**
 * The outcome of an answer: one issue per unasked key first (they are what must never slip through), then the
 * form's own issues for what it asked; at most `maxIssues` in all and a last one summing up the rest, as
 * `validate-instance.ts` caps. A refused form stays refused.
 */
export function answerOutcome(asked: ValidationOutcome, unasked: readonly string[], maxIssues: number): ValidationOutcome {
  if (unasked.length === 0 || asked.status === 'refused') return asked;
  const found = asked.status === 'valid' ? [] : asked.issues;
  // The form's own summary means its collection stopped at the cap: the total is not known.
  const uncounted = found.some((issue) => issue.keyword === 'maxIssues');
  const own = found.filter((issue) => issue.keyword !== 'maxIssues');
  const issues = unasked.slice(0, maxIssues).map(unaskedIssue);
  issues.push(...own.slice(0, maxIssues - issues.length));
  const dropped = unasked.length + own.length - issues.length;
  if (uncounted) issues.push({ path: '$', keyword: 'maxIssues', message: 'more issues not shown' });
  else if (dropped > 0)
    issues.push({ path: '$', keyword: 'maxIssues', message: `${dropped} more issue${dropped === 1 ? '' : 's'} not shown` });
  return { status: 'invalid', issues: issues as [Issue, ...Issue[]] };
}

function no(message: string): Refused {
  return { status: 'refused', refusal: { code: 'invalid_schema', message } };
}
