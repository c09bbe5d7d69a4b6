import type { Issue } from '../protocol/issue.ts';
import type { BigNumberSite, CopyResult } from './copy-json.ts';
import { describeFailures } from './describe-failure.ts';
import type { LeafFailure, SchemaNode } from './schema-validator-adapter.ts';
import type { ValidationContext } from './validate-instance.ts';
import { isFalseSchema, rootBase, type SchemaObject } from './walk-schema.ts';

const huge = 2 ** 53;
const comparisons = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
const exactMultipleOf = Symbol('schemaval.exactMultipleOf');

/**
 * Exact validation when integers past 2^53 are involved. Doubles cannot hold them, so every number of magnitude
 * 2^53 or more (in the instance and in the schema's bounds, `const` and `enum`) is replaced by a stand-in double
 * that keeps order, equality and integrality: the k-th such value becomes ±(2^53 + 2k). `multipleOf` cannot
 * survive that, so each one is rewritten to an explicit list of which stand-ins are exact multiples. The validator
 * then decides on stand-ins, and messages print the original digits.
 */
export function exactValidation(context: ValidationContext, copied: Extract<CopyResult, { ok: true }>): Issue[] {
  const { checked } = context;
  const exactOf = new Map<number, bigint>();
  const sites = new Map<object, Map<string | number, string>>();
  const note = (list: readonly BigNumberSite[]): void => {
    for (const site of list) {
      const forContainer = sites.get(site.container) ?? new Map<string | number, string>();
      forContainer.set(site.key, site.exact);
      sites.set(site.container, forContainer);
    }
  };
  note(checked.bigNumbers);
  note(copied.bigNumbers);
  const exactAt = (container: object, key: string | number, value: number): bigint =>
    BigInt(sites.get(container)?.get(key) ?? BigInt(value).toString());

  // 1. Collect every huge value, exactly.
  const values = new Set<bigint>();
  const gather = (container: Record<string | number, unknown>, key: string | number): void => {
    const value = container[key];
    if (typeof value === 'number') {
      if (Math.abs(value) >= huge) values.add(exactAt(container, key, value));
    } else if (typeof value === 'object' && value !== null) {
      for (const k of Array.isArray(value) ? value.keys() : Object.keys(value)) gather(value as Record<string | number, unknown>, k);
    }
  };
  gather(copied.holder as unknown as Record<number, unknown>, 0);
  const schemaNodes = [...checked.index.pointerOf.keys()];
  for (const node of schemaNodes) {
    for (const keyword of [...comparisons, 'const', 'enum']) if (keyword in node) gather(node, keyword);
  }

  // 2. Stand-ins that keep order: positives above every ordinary number, negatives below.
  const standIn = new Map<bigint, number>();
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const negatives = sorted.filter((v) => v < 0n).reverse();
  for (const [k, v] of negatives.entries()) standIn.set(v, -(huge + 2 * (k + 1)));
  for (const [k, v] of sorted.filter((x) => x > 0n).entries()) standIn.set(v, huge + 2 * (k + 1));
  for (const [exact, stand] of standIn) exactOf.set(stand, exact);

  const remap = (container: Record<string | number, unknown>, key: string | number): void => {
    const value = container[key];
    if (typeof value === 'number') {
      if (Math.abs(value) >= huge) container[key] = standIn.get(exactAt(container, key, value));
    } else if (typeof value === 'object' && value !== null) {
      for (const k of Array.isArray(value) ? value.keys() : Object.keys(value)) remap(value as Record<string | number, unknown>, k);
    }
  };

  // 3. A private copy of the schema with stand-ins, then the instance likewise.
  const clones = new Map<object, object>();
  const root = cloneSchema(checked.root, clones);
  for (const node of schemaNodes) {
    const clone = clones.get(node) as SchemaObject;
    for (const keyword of [...comparisons, 'const', 'enum']) if (keyword in clone) remapSites(node, clone, keyword, sites, remap);
    if (typeof clone.multipleOf === 'number') rewriteMultipleOf(node, clone, standIn, sites);
  }
  remap(copied.holder as unknown as Record<number, unknown>, 0);

  const refNodes = checked.index.refs.filter((site) => site.keyword === '$ref').map((site) => clones.get(site.node) as SchemaNode);
  const compiled = context.adapter.compile({
    schema: root as SchemaNode | boolean,
    dialect: checked.dialect,
    base: rootBase,
    refNodes,
    anchors: remapAnchors(checked.index.anchors, clones),
  });
  if (!compiled.ok) return [{ path: '$', keyword: 'schema', message: compiled.message }];
  const value = copied.holder[0];
  const failures = compiled.compiled.validate(value).map(restoreMultipleOf);
  return describeFailures(failures, value, (v) => (typeof v === 'number' ? exactOf.get(v)?.toString() : undefined));
}

/** Moves known exact digits from the original node's sites to the clone's, then remaps the clone's value. */
function remapSites(
  node: SchemaObject,
  clone: SchemaObject,
  keyword: string,
  sites: Map<object, Map<string | number, string>>,
  remap: (container: Record<string | number, unknown>, key: string | number) => void,
): void {
  transferSites(node[keyword], clone[keyword], sites);
  const own = sites.get(node)?.get(keyword);
  if (own !== undefined) {
    const forClone = sites.get(clone) ?? new Map<string | number, string>();
    forClone.set(keyword, own);
    sites.set(clone, forClone);
  }
  remap(clone, keyword);
}

function transferSites(original: unknown, clone: unknown, sites: Map<object, Map<string | number, string>>): void {
  if (typeof original !== 'object' || original === null || typeof clone !== 'object' || clone === null) return;
  const own = sites.get(original);
  if (own !== undefined) sites.set(clone, own);
  for (const key of Object.keys(original)) {
    transferSites((original as Record<string, unknown>)[key], (clone as Record<string, unknown>)[key], sites);
  }
}

/** `multipleOf: m` → an `allOf` member that lists the stand-ins that are exact multiples and keeps `m` for the rest. */
function rewriteMultipleOf(
  node: SchemaObject,
  clone: SchemaObject,
  standIn: ReadonlyMap<bigint, number>,
  sites: Map<object, Map<string | number, string>>,
): void {
  const divisor = sites.get(node)?.get('multipleOf') ?? String(clone.multipleOf);
  const multiples: number[] = [];
  const all: number[] = [];
  for (const [exact, stand] of standIn) {
    all.push(stand);
    if (isExactMultiple(exact, divisor)) multiples.push(stand);
  }
  const check: SchemaObject = Object.create(null);
  const other: SchemaObject = Object.create(null);
  const standInEnum: SchemaObject = Object.create(null);
  const multipleEnum: SchemaObject = Object.create(null);
  standInEnum.enum = all;
  multipleEnum.enum = multiples;
  other.not = standInEnum;
  other.multipleOf = clone.multipleOf;
  check.anyOf = [multipleEnum, other];
  Object.defineProperty(check, exactMultipleOf, { value: divisor });
  delete clone.multipleOf;
  clone.allOf = [...((clone.allOf as unknown[] | undefined) ?? []), check];
}

/** Reports a failed rewritten `multipleOf` as the `multipleOf` it stands for. */
function restoreMultipleOf(failure: LeafFailure): LeafFailure {
  const divisor = (failure.schema as Record<symbol, unknown>)[exactMultipleOf];
  if (typeof divisor !== 'string') return failure;
  const schema: SchemaNode = Object.create(null);
  schema.multipleOf = Number(divisor);
  return { instancePath: failure.instancePath, keyword: 'multipleOf', schema, schemaPath: failure.schemaPath };
}

/** Whether an integer is a multiple of a decimal divisor, exactly. */
export function isExactMultiple(value: bigint, divisor: string): boolean {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(divisor);
  if (!match) return false;
  const digits = BigInt(`${match[2]}${match[3] ?? ''}`);
  if (digits === 0n) return false;
  const scale = (match[3]?.length ?? 0) - Number(match[4] ?? 0);
  // divisor = digits × 10^-scale
  if (scale >= 0) return (value * 10n ** BigInt(scale)) % digits === 0n;
  return value % (digits * 10n ** BigInt(-scale)) === 0n;
}

/** Deep-copies the engine's schema copy, keeping the `false` stand-ins, and records original → clone. */
function cloneSchema(value: unknown, clones: Map<object, object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => cloneSchema(item, clones));
    clones.set(value, out);
    return out;
  }
  const out: Record<string, unknown> = Object.create(null);
  if (isFalseSchema(value)) {
    Object.defineProperty(out, Object.getOwnPropertySymbols(value)[0] as symbol, { value: true });
  }
  for (const key of Object.keys(value)) out[key] = cloneSchema((value as Record<string, unknown>)[key], clones);
  clones.set(value, out);
  return out;
}

function remapAnchors(anchors: ReadonlyMap<string, SchemaObject>, clones: ReadonlyMap<object, object>): Map<string, SchemaNode> {
  const out = new Map<string, SchemaNode>();
  for (const [uri, node] of anchors) out.set(uri, clones.get(node) as SchemaNode);
  return out;
}
