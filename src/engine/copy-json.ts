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

class Stop {
  constructor(
    readonly reason: CopyFailure['reason'],
    readonly detail: string,
    readonly path: (string | number)[],
  ) {}
}

/**
 * Copies a JSON value into fresh null-prototype objects, so no inherited name (`toString`, `__proto__`) can
 * satisfy a keyword and no library can stamp the caller's object. Checks nesting as it goes (so a 5,000-deep
 * value costs 65 steps) and the UTF-8 size of the JSON encoding. Numbers beyond a double's precision
 * (lossless-json `LosslessNumber`s, `bigint`s) become their nearest double and are listed, so callers can be exact.
 */
export function copyJson(input: unknown, limits: CopyLimits): CopyResult {
  const bigNumbers: BigNumberSite[] = [];
  let bytes = 0;
  let hasHugeNumber = false;
  const path: (string | number)[] = [];

  const fail = (reason: CopyFailure['reason'], detail: string): never => {
    throw new Stop(reason, detail, [...path]);
  };

  const scalar = (value: unknown, container: Record<string, unknown> | unknown[], key: string | number): unknown => {
    switch (typeof value) {
      case 'string':
        bytes += jsonStringBytes(value) + 2;
        return value;
      case 'boolean':
        bytes += value ? 4 : 5;
        return value;
      case 'number':
        if (!Number.isFinite(value)) fail('not_json', `${String(value)} is not a JSON number`);
        bytes += String(value).length;
        if (Math.abs(value) >= 2 ** 53) hasHugeNumber = true;
        return value;
      case 'bigint': {
        const exact = value.toString();
        return big(exact, container, key);
      }
      default:
        if (value === null) {
          bytes += 4;
          return null;
        }
        if (isLosslessNumber(value)) return big((value as { value: string }).value, container, key);
        return fail('not_json', `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`} is not a JSON value`);
    }
  };

  const big = (exact: string, container: Record<string, unknown> | unknown[], key: string | number): number => {
    bytes += exact.length;
    const approx = Number(exact);
    if (!Number.isFinite(approx)) fail('not_json', `${exact} is beyond the range of a JSON number here`);
    if (Math.abs(approx) >= 2 ** 53) hasHugeNumber = true;
    if (!isExactDouble(exact, approx)) bigNumbers.push({ container, key, exact });
    return approx;
  };

  const copy = (value: unknown, depth: number, container: Record<string, unknown> | unknown[], key: string | number): unknown => {
    if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return scalar(value, container, key);
    if (depth >= limits.maxDepth) fail('too_deep', `nesting deeper than ${limits.maxDepth}`);
    if (bytes > limits.maxBytes) fail('too_large', `more than ${limits.maxBytes} bytes`);
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      bytes += 1 + value.length;
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        out[i] = copy(value[i], depth + 1, out, i);
        path.pop();
      }
      return out;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) fail('not_json', 'only plain objects are JSON objects');
    const out: Record<string, unknown> = Object.create(null);
    const keys = Object.keys(value);
    bytes += 1 + keys.length;
    for (const k of keys) {
      path.push(k);
      const child = (value as Record<string, unknown>)[k];
      if (child !== undefined) {
        bytes += jsonStringBytes(k) + 3;
        out[k] = copy(child, depth + 1, out, k);
      }
      path.pop();
    }
    return out;
  };

  try {
    // The root sits in a one-element holder so that a site can point at it like at any other value.
    const holder: [unknown] = [undefined];
    holder[0] = copy(input, 0, holder, 0);
    if (bytes > limits.maxBytes) fail('too_large', `${bytes} bytes, over ${limits.maxBytes}`);
    return { ok: true, holder, bytes, bigNumbers, hasHugeNumber };
  } catch (error) {
    if (error instanceof Stop) return { ok: false, reason: error.reason, path: error.path, detail: error.detail };
    if (error instanceof RangeError) return { ok: false, reason: 'too_deep', path: [], detail: 'nesting too deep to walk' };
    // A getter or proxy that throws: not a JSON value either.
    return {
      ok: false,
      reason: 'not_json',
      path: [...path],
      detail: `reading it failed (${error instanceof Error ? error.name : 'error'})`,
    };
  }
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
