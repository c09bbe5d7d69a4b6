// A decimal reference for the differential's number cases (docs/dialects.md, "What a JavaScript number means"),
// written here independently of src/engine/numbers: a double below 2^53 in magnitude means its shortest decimal,
// from 2^53 on its exact binary value; a JSON text number means its digits. Values are digits × 10^-scale.

export interface Exact {
  readonly digits: bigint;
  readonly scale: number;
}

/** Digits and scale of a decimal literal (`-1.25e-3`, `18446744073709551616`). */
export function exactOfText(text: string): Exact {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a JSON number: ${text}`);
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** The value a plain JS number stands for. */
export function exactOfDouble(value: number): Exact {
  if (!Number.isFinite(value)) throw new Error(`not finite: ${value}`);
  // Every double of magnitude ≥ 2^53 is an integer, and BigInt() gives its exact binary value.
  if (Math.abs(value) >= 2 ** 53) return { digits: BigInt(value), scale: 0 };
  return exactOfText(Object.is(value, -0) ? '0' : String(value));
}

function aligned(a: Exact, b: Exact): [bigint, bigint] {
  const scale = Math.max(a.scale, b.scale);
  return [a.digits * 10n ** BigInt(scale - a.scale), b.digits * 10n ** BigInt(scale - b.scale)];
}

export function compareExact(a: Exact, b: Exact): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isMultipleExact(value: Exact, divisor: Exact): boolean {
  const [x, y] = aligned(value, divisor);
  return x % y === 0n;
}

/** The one-keyword numeric schemas the number cases use. */
export type NumberKeyword = 'multipleOf' | 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'const' | 'enum';

/** The exact verdict of `{keyword: bounds[0]}` (for `enum`, `{enum: bounds}`) on one number. */
export function exactVerdict(keyword: NumberKeyword, bounds: readonly Exact[], value: Exact): boolean {
  const first = bounds[0]!;
  switch (keyword) {
    case 'multipleOf':
      return isMultipleExact(value, first);
    case 'minimum':
      return compareExact(value, first) >= 0;
    case 'maximum':
      return compareExact(value, first) <= 0;
    case 'exclusiveMinimum':
      return compareExact(value, first) > 0;
    case 'exclusiveMaximum':
      return compareExact(value, first) < 0;
    case 'const':
    case 'enum':
      return bounds.some((member) => compareExact(value, member) === 0);
  }
}
