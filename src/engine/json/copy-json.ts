import { isLosslessNumber } from 'lossless-json';
import { isDoubleText, maxExactExponent, parseExactDecimal } from '../numbers/exact-decimal.ts';
import { jsonKeyBytes, jsonStringBytes } from './json-string-bytes.ts';
import { truncate } from './truncate.ts';

/** Where a number whose JSON text is not exactly a double (`9007199254740993`, `0.5e-400`) sat in a copied document. */
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
      /** A number doubles cannot decide on: one listed in `bigNumbers`, or a double of magnitude 2^53 or more. */
      readonly hasHugeNumber: boolean;
      /** How many numbers the value holds (the exact path lists each distinct one per `multipleOf`). */
      readonly numbers: number;
      /** How many JSON values (scalars, arrays and objects) it holds: caches weigh a copy by it. */
      readonly values: number;
      /** The most characters (UTF-16 units) of object keys on one route from the root to a value. */
      readonly keyPath: number;
      /** Sums over the value's arrays (the work bound charges `uniqueItems` per array from them). */
      readonly arrays: ArraySums;
      /**
       * Whether some object of the copy has an own key `pattern` or `patternProperties`: what `hasPatternKeys`
       * answers for the copy, found on the way, so a schema is not walked again to learn it.
       */
      readonly patternKeys: boolean;
    }
  | CopyFailure;

/**
 * Per array of n items holding N values below it in B bytes of JSON text (its brackets included), summed over
 * every array of the value, nested ones included.
 */
export interface ArraySums {
  /** Σ N */
  readonly nodes: number;
  /** Σ B */
  readonly bytes: number;
  /** Σ n² */
  readonly itemPairs: number;
  /** Σ n·N */
  readonly itemNodes: number;
  /** Σ n·B */
  readonly itemBytes: number;
}

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
  /** The keys from the offending value up to the root, added as the copy unwinds (no bookkeeping on success). */
  readonly reversePath: (string | number)[] = [];
  constructor(
    readonly reason: CopyFailure['reason'],
    readonly detail: string,
  ) {}
}

interface CopyState {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly bigNumbers: BigNumberSite[];
  bytes: number;
  hasHugeNumber: boolean;
  numbers: number;
  values: number;
  keyPath: number;
  readonly arrays: { -readonly [K in keyof ArraySums]: number };
  patternKeys: boolean;
}

type Container = Record<string, unknown> | unknown[];

/**
 * Copies a JSON value into fresh objects with an empty prototype, so no inherited name can satisfy a keyword
 * and no library can stamp the caller's object. Checks nesting as it goes (a 5,000-deep value costs 65 steps) and
 * the UTF-8 size of the JSON encoding. Numbers whose text is not exactly a double (lossless-json `LosslessNumber`s,
 * `bigint`s) become their nearest finite double and are listed, so callers can be exact. An object key with a
 * lone surrogate is not JSON here (I-JSON), so no validator ever meets one.
 */
export function copyJson(input: unknown, limits: CopyLimits): CopyResult {
  const state: CopyState = {
    maxBytes: limits.maxBytes,
    maxDepth: limits.maxDepth,
    bigNumbers: [],
    bytes: 0,
    hasHugeNumber: false,
    numbers: 0,
    values: 0,
    keyPath: 0,
    arrays: { nodes: 0, bytes: 0, itemPairs: 0, itemNodes: 0, itemBytes: 0 },
    patternKeys: false,
  };
  // The root sits in a one-element holder so that a site can point at it like at any other value.
  const holder: [unknown] = [undefined];
  try {
    holder[0] = copyValue(state, input, 0, holder, 0, 0);
    if (state.bytes > limits.maxBytes) throw new Stop('too_large', `${state.bytes} bytes, over ${limits.maxBytes}`);
    return {
      ok: true,
      holder,
      bytes: state.bytes,
      bigNumbers: state.bigNumbers,
      hasHugeNumber: state.hasHugeNumber,
      numbers: state.numbers,
      values: state.values,
      keyPath: state.keyPath,
      arrays: state.arrays,
      patternKeys: state.patternKeys,
    };
  } catch (error) {
    const stop = asStop(error);
    if (stop !== undefined) return { ok: false, reason: stop.reason, path: stop.reversePath.reverse(), detail: stop.detail };
    // The call stack ran out first (a value nested deeper than the runtime can walk).
    return { ok: false, reason: 'too_deep', path: [], detail: 'nesting too deep to walk' };
  }
}

/**
 * What was thrown while copying, as a `Stop`: a getter or proxy that throws is not a JSON value either. Undefined
 * for a `RangeError`: the call stack ran out.
 */
function asStop(error: unknown): Stop | undefined {
  if (error instanceof Stop) return error;
  if (error instanceof RangeError) return undefined;
  return new Stop('not_json', `reading it failed (${error instanceof Error ? error.name : 'error'})`);
}

/** Adds the key to the path of anything thrown below it, as the copy unwinds. */
function below(error: unknown, key: string | number): unknown {
  const stop = asStop(error);
  if (stop === undefined) return error;
  stop.reversePath.push(key);
  return stop;
}

/** `keyPath`: the characters of the object keys from the root down to this value. */
function copyValue(state: CopyState, value: unknown, depth: number, container: Container, key: string | number, keyPath: number): unknown {
  state.values++;
  if (typeof value !== 'object' || value === null) return copyScalar(state, value, container, key);
  const isArray = Array.isArray(value);
  // The prototype first: a plain object or array is never a LosslessNumber, so most values skip its marker lookup.
  if (!isArray) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null && proto !== jsonObjectPrototype) {
      if (isLosslessNumber(value)) return copyBig(state, (value as { value: string }).value, container, key);
      throw new Stop('not_json', 'only plain objects are JSON objects');
    }
  }
  if (depth >= state.maxDepth) throw new Stop('too_deep', `nesting deeper than ${state.maxDepth}`);
  if (state.bytes > state.maxBytes) throw new Stop('too_large', `more than ${state.maxBytes} bytes`);
  if (isArray) {
    const length = value.length;
    const out: unknown[] = new Array(length);
    const valuesBefore = state.values;
    const bytesBefore = state.bytes;
    state.bytes += length === 0 ? 2 : 1 + length; // brackets and commas
    let i = 0;
    try {
      for (; i < length; i++) out[i] = copyValue(state, value[i], depth + 1, out, i, keyPath);
    } catch (error) {
      throw below(error, i);
    }
    const nodes = state.values - valuesBefore;
    const bytes = state.bytes - bytesBefore;
    const sums = state.arrays;
    sums.nodes += nodes;
    sums.bytes += bytes;
    sums.itemPairs += length * length;
    sums.itemNodes += length * nodes;
    sums.itemBytes += length * bytes;
    return out;
  }
  const out = createJsonObject();
  const keys = Object.keys(value);
  state.bytes += keys.length === 0 ? 2 : 1 + keys.length; // braces and commas
  for (const k of keys) {
    // Validators encode keys into pointers (cfworker with encodeURI, which throws on a lone surrogate).
    const keyBytes = jsonKeyBytes(k);
    if (keyBytes < 0) throw new Stop('not_json', `an object key has an unpaired UTF-16 surrogate: ${JSON.stringify(truncate(k, 40))}`);
    try {
      const child = (value as Record<string, unknown>)[k];
      if (child === undefined) continue;
      state.bytes += keyBytes + 3;
      const childPath = keyPath + k.length;
      if (childPath > state.keyPath) state.keyPath = childPath;
      if (k === 'pattern' || k === 'patternProperties') state.patternKeys = true;
      out[k] = copyValue(state, child, depth + 1, out, k, childPath);
    } catch (error) {
      throw below(error, k);
    }
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
      state.bytes += numberBytes(value);
      state.numbers++;
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

/** The length of a number's JSON text; small integers are counted without making the text. */
function numberBytes(value: number): number {
  if (value >= 0 && value < 1e6 && Number.isInteger(value))
    return value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 1e4 ? 4 : value < 1e5 ? 5 : 6;
  return String(value).length;
}

function copyBig(state: CopyState, text: string, container: Container, key: string | number): number {
  state.bytes += text.length;
  state.numbers++;
  const exact = parseExactDecimal(text);
  if (exact === undefined) {
    throw new Stop(
      'not_json',
      `the number ${truncate(text, 40)} has an exponent of ${maxExactExponent.toExponential()} or more in magnitude, too large to compare exactly`,
    );
  }
  const approx = Number(text);
  if (Math.abs(approx) >= 2 ** 53) state.hasHugeNumber = true;
  if (isDoubleText(text)) return approx;
  state.hasHugeNumber = true;
  state.bigNumbers.push({ container, key, exact: text });
  // The nearest double in order, never infinite nor a false zero: 1e400 stands as the largest double and
  // 1e-400 as the smallest positive one; the exact path decides on the digits.
  if (!Number.isFinite(approx)) return Math.sign(approx) * Number.MAX_VALUE;
  if (approx === 0 && exact.digits !== '0') return exact.negative ? -Number.MIN_VALUE : Number.MIN_VALUE;
  return approx;
}
