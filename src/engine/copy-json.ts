import { isLosslessNumber } from 'lossless-json';
import { jsonStringBytes } from './json-string-bytes.ts';

/** Where a number that a double cannot hold exactly sat in a copied document. */
export interface BigNumberSite {
  readonly container: Record<string, unknown> | unknown[];
  readonly key: string | number;
  /** The number's exact decimal text. */
  readonly exact: string;
}

/** Why a value could not be copied. `path` holds the keys from the root to the offending value. */
export interface CopyFailure {
  readonly ok: false;
  readonly reason: 'too_deep' | 'too_large' | 'not_json';
  readonly path: readonly (string | number)[];
  readonly detail: string;
}

export type CopyResult =
  | {
      readonly ok: true;
      readonly holder: [unknown];
      readonly bytes: number;
      readonly bigNumbers: readonly BigNumberSite[];
      readonly hasHugeNumber: boolean;
    }
  | CopyFailure;

export interface CopyLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

/**
 * The prototype of every object the engine copies: empty and frozen, so no inherited name (`toString`,
 * `__proto__`) can satisfy a keyword, while V8 keeps the objects in its fast shape (a bare null prototype would
 * not, and validators read them slower).
 */
export const jsonObjectPrototype: object = Object.freeze(Object.create(null));

/** A fresh object for the engine's copies. */
export function createJsonObject(): Record<string, unknown> {
  return Object.create(jsonObjectPrototype);
}

class Stop {
  constructor(
    readonly reason: CopyFailure['reason'],
    readonly detail: string,
  ) {}
}

interface CopyState {
  readonly limits: CopyLimits;
  readonly bigNumbers: BigNumberSite[];
  readonly path: (string | number)[];
  bytes: number;
  hasHugeNumber: boolean;
}

type Container = Record<string, unknown> | unknown[];

/**
 * Copies a JSON value into fresh objects with an empty prototype, so no inherited name can satisfy a keyword
 * and no library can stamp the caller's object. Checks nesting as it goes (a 5,000-deep value costs 65 steps) and
 * the UTF-8 size of the JSON encoding. Numbers a double cannot hold (lossless-json `LosslessNumber`s, `bigint`s)
 * become their nearest double and are listed, so callers can be exact.
 */
export function copyJson(input: unknown, limits: CopyLimits): CopyResult {
  const state: CopyState = { limits, bigNumbers: [], path: [], bytes: 0, hasHugeNumber: false };
  // The root sits in a one-element holder so that a site can point at it like at any other value.
  const holder: [unknown] = [undefined];
  try {
    holder[0] = copyValue(state, input, 0, holder, 0);
    if (state.bytes > limits.maxBytes) throw new Stop('too_large', `${state.bytes} bytes, over ${limits.maxBytes}`);
    return { ok: true, holder, bytes: state.bytes, bigNumbers: state.bigNumbers, hasHugeNumber: state.hasHugeNumber };
  } catch (error) {
    if (error instanceof Stop) return { ok: false, reason: error.reason, path: [...state.path], detail: error.detail };
    if (error instanceof RangeError) return { ok: false, reason: 'too_deep', path: [], detail: 'nesting too deep to walk' };
    // A getter or proxy that throws: not a JSON value either.
    return {
      ok: false,
      reason: 'not_json',
      path: [...state.path],
      detail: `reading it failed (${error instanceof Error ? error.name : 'error'})`,
    };
  }
}

function copyValue(state: CopyState, value: unknown, depth: number, container: Container, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return copyScalar(state, value, container, key);
  if (isLosslessNumber(value)) return copyBig(state, (value as { value: string }).value, container, key);
  if (depth >= state.limits.maxDepth) throw new Stop('too_deep', `nesting deeper than ${state.limits.maxDepth}`);
  if (state.bytes > state.limits.maxBytes) throw new Stop('too_large', `more than ${state.limits.maxBytes} bytes`);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    state.bytes += 1 + value.length;
    for (let i = 0; i < value.length; i++) {
      state.path.push(i);
      out[i] = copyValue(state, value[i], depth + 1, out, i);
      state.path.pop();
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && proto !== jsonObjectPrototype) {
    throw new Stop('not_json', 'only plain objects are JSON objects');
  }
  const out = createJsonObject();
  const keys = Object.keys(value);
  state.bytes += 1 + keys.length;
  for (const k of keys) {
    state.path.push(k);
    const child = (value as Record<string, unknown>)[k];
    if (child !== undefined) {
      state.bytes += jsonStringBytes(k) + 3;
      out[k] = copyValue(state, child, depth + 1, out, k);
    }
    state.path.pop();
  }
  return out;
}

function copyScalar(state: CopyState, value: unknown, container: Container, key: string | number): unknown {
  switch (typeof value) {
    case 'string':
      state.bytes += jsonStringBytes(value) + 2;
      return value;
    case 'boolean':
      state.bytes += value ? 4 : 5;
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new Stop('not_json', `${String(value)} is not a JSON number`);
      state.bytes += String(value).length;
      if (value >= 2 ** 53 || value <= -(2 ** 53)) state.hasHugeNumber = true;
      return value;
    case 'bigint':
      return copyBig(state, value.toString(), container, key);
    default:
      if (value === null) {
        state.bytes += 4;
        return null;
      }
      throw new Stop('not_json', `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`} is not a JSON value`);
  }
}

function copyBig(state: CopyState, exact: string, container: Container, key: string | number): number {
  state.bytes += exact.length;
  const approx = Number(exact);
  if (!Number.isFinite(approx)) throw new Stop('not_json', `${exact} is beyond the range of a JSON number here`);
  if (Math.abs(approx) >= 2 ** 53) state.hasHugeNumber = true;
  if (!isExactDouble(exact, approx)) state.bigNumbers.push({ container, key, exact });
  return approx;
}

/**
 * True when the decimal text denotes exactly the double `approx`, as far as exactness is promised: integers
 * everywhere, and any number of magnitude 2^53 or more (below that, decimals are doubles by design).
 */
function isExactDouble(exact: string, approx: number): boolean {
  if (Math.abs(approx) < 2 ** 53) {
    if (!/^-?\d+$/.test(exact)) return true;
    if (Number.isSafeInteger(approx)) return true;
  }
  if (!/^-?\d+$/.test(exact)) return false;
  return BigInt(exact) === BigInt(approx);
}
