import { LosslessNumber } from 'lossless-json';
import type { Issue } from '../../protocol/issue.ts';
import { describeFailures } from '../issues/describe-failure.ts';
import { type CopyResult, createJsonObject } from '../json/copy-json.ts';
import {
  compareExact,
  displayExact,
  type ExactDecimal,
  exactKey,
  exactOfDouble,
  formatExact,
  isExactInteger,
  isExactMultiple,
  parseExactDecimal,
} from '../numbers/exact-decimal.ts';
import type { CheckedSchema } from '../policy/checked-schema.ts';
import { isFalseSchema, type SchemaObject } from '../schema/schema-types.ts';
import type { AdapterValidateOptions, LeafFailure, SchemaNode } from '../schema/schema-validator-adapter.ts';
import type { ValidationContext } from './validation-context.ts';

const compared = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'const', 'enum'];
const exactMultipleOf = Symbol('schemaval.exactMultipleOf');
/** Stand-ins start here: far from any count a schema compares (`minLength` …), and halves stay exact up to 2^52. */
const standInBase = 2 ** 40;

type Container = Record<string | number, unknown>;

const needsExactSchema = new WeakMap<CheckedSchema, boolean>();

/**
 * Whether doubles cannot decide for this instance: it holds a number whose text is not exactly a double or one
 * of magnitude 2^53 or more, or the schema holds an inexact number where instances are compared to it.
 */
export function needsExactPath(checked: CheckedSchema, copied: Extract<CopyResult, { ok: true }>): boolean {
  if (copied.hasHugeNumber) return true;
  if (checked.bigNumbers.length === 0) return false;
  let known = needsExactSchema.get(checked);
  if (known === undefined) {
    const sites = new Set<object>(checked.bigNumbers.map((site) => site.container));
    const reaches = (value: unknown): boolean =>
      typeof value === 'object' && value !== null && (sites.has(value) || Object.values(value).some(reaches));
    known = [...checked.index.pointerOf.keys()].some(
      (node) => sites.has(node) || [...compared, 'multipleOf'].some((keyword) => reaches(node[keyword])),
    );
    needsExactSchema.set(checked, known);
  }
  return known;
}

/**
 * Exact validation for numbers doubles cannot decide on. Every number of the instance, and of the schema's
 * bounds, `const` and `enum`, is replaced by a stand-in double that keeps order, equality and integrality: its
 * rank among them all. `multipleOf` cannot survive that, so each one is rewritten into an explicit list of the
 * instance's stand-ins that are exact multiples. The validator decides on stand-ins; messages print the
 * original digits. Exponents are never expanded (see exact-decimal.ts). See docs/decisions/002-exact-integers.md.
 */
export function exactValidation(
  context: ValidationContext,
  copied: Extract<CopyResult, { ok: true }>,
  options?: AdapterValidateOptions,
): Issue[] {
  const { checked } = context;
  const digits = new Map<object, Map<string | number, string>>();
  for (const site of [...checked.bigNumbers, ...copied.bigNumbers]) {
    const forContainer = digits.get(site.container) ?? new Map<string | number, string>();
    forContainer.set(site.key, site.exact);
    digits.set(site.container, forContainer);
  }
  const exactAt = (container: object, key: string | number, value: number): ExactDecimal => {
    const text = digits.get(container)?.get(key);
    return (text !== undefined ? parseExactDecimal(text) : undefined) ?? exactOfDouble(value);
  };

  // 1. Every number that meets an instance number, exactly; the instance's own apart (multipleOf lists them).
  const values = new Map<string, ExactDecimal>();
  const instanceValues = new Map<string, ExactDecimal>();
  const gather = (container: Container, key: string | number, into: Map<string, ExactDecimal>): void => {
    const value = container[key];
    if (typeof value === 'number') {
      const exact = exactAt(container, key, value);
      into.set(exactKey(exact), exact);
    } else if (typeof value === 'object' && value !== null) {
      for (const k of Array.isArray(value) ? value.keys() : Object.keys(value)) gather(value as Container, k, into);
    }
  };
  gather(copied.holder as unknown as Container, 0, instanceValues);
  for (const [key, value] of instanceValues) values.set(key, value);
  const schemaNodes = [...checked.index.pointerOf.keys()];
  for (const node of schemaNodes) for (const keyword of compared) if (keyword in node) gather(node, keyword, values);

  // 2. Stand-ins by rank, two apart; a non-integer adds 0.5 so `type: "integer"` still tells them apart.
  const sorted = [...values.values()].sort(compareExact);
  const standIn = new Map<string, number>();
  const exactOf = new Map<number, string>();
  for (const [rank, value] of sorted.entries()) {
    const stand = standInBase + 2 * rank + (isExactInteger(value) ? 0 : 0.5);
    standIn.set(exactKey(value), stand);
    exactOf.set(stand, displayExact(value));
  }

  const remap = (container: Container, key: string | number, sites: Map<object, Map<string | number, string>>): void => {
    const value = container[key];
    if (typeof value === 'number') {
      const text = sites.get(container)?.get(key);
      const exact = (text !== undefined ? parseExactDecimal(text) : undefined) ?? exactOfDouble(value);
      container[key] = standIn.get(exactKey(exact));
    } else if (typeof value === 'object' && value !== null) {
      for (const k of Array.isArray(value) ? value.keys() : Object.keys(value)) remap(value as Container, k, sites);
    }
  };

  // 3. A private copy of the schema with stand-ins, then the instance likewise.
  const clones = new Map<object, object>();
  const root = cloneSchema(checked.root, clones);
  const cloneDigits = new Map<object, Map<string | number, string>>();
  for (const [container, map] of digits) {
    const clone = clones.get(container);
    if (clone !== undefined) cloneDigits.set(clone, map);
  }
  for (const node of schemaNodes) {
    const clone = clones.get(node) as SchemaObject;
    for (const keyword of compared) if (keyword in clone) remap(clone, keyword, cloneDigits);
    if (typeof clone.multipleOf === 'number') {
      const divisor = exactAt(node, 'multipleOf', clone.multipleOf);
      rewriteMultipleOf(clone, divisor, [...instanceValues.values()], standIn);
    }
  }
  remap(copied.holder as unknown as Container, 0, digits);

  // The same `$ref` handling as compile-schema.ts, mapped onto the clone: the engine's own resolved targets
  // (cfworker's indexer misses `$ref`s under some `dependencies` keys, such as `constructor` or `type`).
  const refSites = checked.index.refs.filter((site) => site.keyword === '$ref');
  const refNodes = refSites.map((site) => clones.get(site.node) as SchemaNode);
  const refTargets = new Map<SchemaNode, SchemaNode | boolean>();
  for (const site of refSites) {
    const found = checked.targets.get(site.node);
    // A holder of both `$ref` and `$recursiveRef` has two targets: left to the adapter's own indexer, as there.
    if (found?.length !== 1 || found[0] === undefined) continue;
    const target = typeof found[0] === 'object' ? (clones.get(found[0]) as SchemaNode | undefined) : found[0];
    if (target !== undefined) refTargets.set(clones.get(site.node) as SchemaNode, target);
  }
  const anchors = new Map<string, SchemaNode>();
  for (const [uri, node] of checked.index.anchors) anchors.set(uri, clones.get(node) as SchemaNode);
  const compiled = context.adapter.compile({
    schema: root as SchemaNode | boolean,
    dialect: checked.dialect,
    base: checked.index.rootUri,
    refNodes,
    refTargets,
    anchors,
  });
  if (compiled.status === 'refused') return [{ path: '$', keyword: 'schema', message: compiled.refusal.message }];
  const value = copied.holder[0];
  const failures = compiled.compiled.validate(value, options).map(restoreMultipleOf);
  return describeFailures(failures, value, (v) => (typeof v === 'number' ? exactOf.get(v) : undefined));
}

/** `multipleOf: m` → an `allOf` member listing which stand-ins are exact multiples, keeping `m` for the rest. */
function rewriteMultipleOf(clone: SchemaObject, divisor: ExactDecimal, values: ExactDecimal[], standIn: ReadonlyMap<string, number>): void {
  const multiples: number[] = [];
  const all: number[] = [];
  for (const value of values) {
    const stand = standIn.get(exactKey(value)) as number;
    all.push(stand);
    if (isExactMultiple(value, divisor)) multiples.push(stand);
  }
  const node = (fields: Record<string, unknown>): SchemaObject => Object.assign(createJsonObject() as SchemaObject, fields);
  const check = node({ anyOf: [node({ enum: multiples }), node({ not: node({ enum: all }), multipleOf: clone.multipleOf })] });
  Object.defineProperty(check, exactMultipleOf, { value: formatExact(divisor) });
  delete clone.multipleOf;
  clone.allOf = [...((clone.allOf as unknown[] | undefined) ?? []), check];
}

/** Reports a failed rewritten `multipleOf` as the `multipleOf` it stands for, with the divisor's own digits. */
function restoreMultipleOf(failure: LeafFailure): LeafFailure {
  const divisor = (failure.schema as Record<symbol, unknown>)[exactMultipleOf];
  if (typeof divisor !== 'string') return failure;
  const schema: SchemaNode = createJsonObject();
  schema.multipleOf = new LosslessNumber(divisor);
  return { instancePath: failure.instancePath, keyword: 'multipleOf', schema, schemaPath: failure.schemaPath };
}

/** Deep-copies the engine's schema copy, keeping the `false` stand-ins, and records original → clone. */
function cloneSchema(value: unknown, clones: Map<object, object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => cloneSchema(item, clones));
    clones.set(value, out);
    return out;
  }
  const out: Record<string, unknown> = createJsonObject();
  if (isFalseSchema(value)) {
    Object.defineProperty(out, Object.getOwnPropertySymbols(value)[0] as symbol, { value: true });
  }
  for (const key of Object.keys(value)) out[key] = cloneSchema((value as Record<string, unknown>)[key], clones);
  clones.set(value, out);
  return out;
}
