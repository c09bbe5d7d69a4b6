/** A decimal number held exactly: `coefficient × 10^exponent`, normalised (no trailing zeros in the coefficient). */
export interface ExactDecimal {
  readonly coefficient: bigint;
  readonly exponent: number;
}

const literal = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Parses JSON number text (or a double's own text) exactly; undefined for anything else. */
export function parseExactDecimal(text: string): ExactDecimal | undefined {
  const match = literal.exec(text);
  if (!match) return undefined;
  let coefficient = BigInt(`${match[1]}${match[2]}${match[3] ?? ''}`);
  let exponent = Number(match[4] ?? 0) - (match[3]?.length ?? 0);
  if (coefficient === 0n) return { coefficient: 0n, exponent: 0 };
  while (coefficient % 10n === 0n) {
    coefficient /= 10n;
    exponent++;
  }
  return { coefficient, exponent };
}

/** The exact value of a double. */
export function exactOfDouble(value: number): ExactDecimal {
  if (Number.isInteger(value)) return parseExactDecimal(BigInt(value).toString()) as ExactDecimal;
  return parseExactDecimal(String(value)) as ExactDecimal;
}

/** Orders two exact decimals. */
export function compareExact(a: ExactDecimal, b: ExactDecimal): number {
  const shift = Math.min(a.exponent, b.exponent);
  const x = a.coefficient * 10n ** BigInt(a.exponent - shift);
  const y = b.coefficient * 10n ** BigInt(b.exponent - shift);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const isExactInteger = (value: ExactDecimal): boolean => value.exponent >= 0;

/** Whether `value` is an integer multiple of `divisor`, exactly (a zero or negative divisor never divides). */
export function isExactMultiple(value: ExactDecimal, divisor: ExactDecimal): boolean {
  if (divisor.coefficient <= 0n) return false;
  const shift = value.exponent - divisor.exponent;
  if (shift >= 0) return (value.coefficient * 10n ** BigInt(shift)) % divisor.coefficient === 0n;
  return value.coefficient % (divisor.coefficient * 10n ** BigInt(-shift)) === 0n;
}

/** Decimal text of an exact value, as JSON would write it. */
export function formatExact(value: ExactDecimal): string {
  if (value.exponent >= 0) return (value.coefficient * 10n ** BigInt(value.exponent)).toString();
  const negative = value.coefficient < 0n;
  const digits = (negative ? -value.coefficient : value.coefficient).toString().padStart(-value.exponent + 1, '0');
  const point = digits.length + value.exponent;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A key under which equal values meet. */
export const exactKey = (value: ExactDecimal): string => `${value.coefficient}e${value.exponent}`;
