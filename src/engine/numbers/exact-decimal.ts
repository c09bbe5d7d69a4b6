/**
 * A decimal number held exactly and symbolically: `±digits × 10^exponent`, normalised (no leading or trailing
 * zeros in `digits`; zero is `"0"` with exponent 0). Nothing here expands an exponent into digits, so the work
 * stays linear in the number's text however large its exponent is.
 */
export interface ExactDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/** Exponents are held as doubles; beyond this magnitude a number is refused rather than approximated. */
export const maxExactExponent = 1e15;

const literal = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;
const zero: ExactDecimal = { negative: false, digits: '0', exponent: 0 };

/**
 * Parses JSON number text (or a double's own text, `1e+300` included) exactly. Undefined for anything else,
 * and for an exponent of magnitude `maxExactExponent` or more.
 */
export function parseExactDecimal(text: string): ExactDecimal | undefined {
  const match = literal.exec(text);
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  const all = `${match[2]}${fraction}`;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 0x30) start++;
  if (start === all.length) return zero;
  let end = all.length;
  while (all.charCodeAt(end - 1) === 0x30) end--;
  const written = (match[5] ?? '0').replace(/^0+(?=\d)/, '');
  if (written.length > 15) return undefined;
  const exponent = (match[4] === '-' ? -1 : 1) * Number(written) - fraction.length + (all.length - end);
  if (Math.abs(exponent) >= maxExactExponent) return undefined;
  return { negative: match[1] === '-', digits: all.slice(start, end), exponent };
}

/**
 * The value a JavaScript number stands for (docs/dialects.md, "What a JavaScript number means"). Below 2^53 in
 * magnitude, its shortest round-trip decimal, the text `JSON.stringify` writes for it: `0.1` is one tenth, as the
 * text `0.1` is. From 2^53 on every double is an integer, and its shortest decimal is not its value
 * (`String(2 ** 60)` is `1152921504606847000`): there it is its exact binary value, 2^60 = 1152921504606846976,
 * and `1e300` is the integer the double holds, not 10^300.
 */
export function exactOfDouble(value: number): ExactDecimal {
  if (Math.abs(value) < 2 ** 53) return parseExactDecimal(String(value)) ?? zero;
  if (!Number.isFinite(value)) return zero;
  return parseExactDecimal(BigInt(value).toString()) ?? zero;
}

/**
 * Whether an exact value is the one the double `approx` stands for (`exactOfDouble`), without writing out a
 * huge double's digits where they cannot match: a double of magnitude 2^53 or more is m × 2^k with m < 2^53, so
 * its value is an integer with at most 22 trailing decimal zeros (5^23 > 2^53).
 */
export function meansDouble(value: ExactDecimal, approx: number): boolean {
  if (!Number.isFinite(approx)) return false;
  if (Math.abs(approx) < 2 ** 53) return exactKey(value) === exactKey(exactOfDouble(approx));
  if (value.exponent < 0 || value.exponent > 22 || value.negative !== approx < 0) return false;
  if (value.digits.length + value.exponent > 309) return false;
  const magnitude = BigInt(value.digits) * 10n ** BigInt(value.exponent);
  return magnitude === BigInt(Math.abs(approx));
}

/**
 * Whether JSON number text means exactly the value its double stands for (`exactOfDouble`): true for `0.1`,
 * `1.50`, `1e2` and `1152921504606846976` (2^60); false for `4503599627370496.5`, `9007199254740993`,
 * `1152921504606847000` (2^60's shortest text, 24 more than 2^60), `1e300`, `1e400` and `1e-400`.
 */
export function isDoubleText(text: string): boolean {
  const approx = Number(text);
  if (!Number.isFinite(approx)) return false;
  if (Math.abs(approx) < 2 ** 53 && text === String(approx)) return true;
  const value = parseExactDecimal(text);
  return value !== undefined && meansDouble(value, approx);
}

/** Where the leading digit sits: values with a larger magnitude order have a larger absolute value. */
const magnitude = (value: ExactDecimal): number => value.digits.length + value.exponent;

/** Orders two exact decimals, comparing digit strings (never building powers of ten). */
export function compareExact(a: ExactDecimal, b: ExactDecimal): number {
  const aZero = a.digits === '0';
  const bZero = b.digits === '0';
  if (aZero || bZero) {
    const sign = (value: ExactDecimal, isZero: boolean): number => (isZero ? 0 : value.negative ? -1 : 1);
    return Math.sign(sign(a, aZero) - sign(b, bZero));
  }
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const flip = a.negative ? -1 : 1;
  if (magnitude(a) !== magnitude(b)) return magnitude(a) < magnitude(b) ? -flip : flip;
  // Same leading position: the digit strings (without trailing zeros) compare like the values.
  return a.digits === b.digits ? 0 : a.digits < b.digits ? -flip : flip;
}

export const isExactInteger = (value: ExactDecimal): boolean => value.exponent >= 0;

/** Whether `value` is an integer multiple of `divisor`, exactly (a zero or negative divisor never divides). */
export function isExactMultiple(value: ExactDecimal, divisor: ExactDecimal): boolean {
  if (divisor.negative || divisor.digits === '0') return false;
  if (value.digits === '0') return true;
  // value / divisor = (v / d) × 10^(e − f): with no trailing zeros, v is never a multiple of 10, so a
  // negative shift leaves a fraction.
  const shift = value.exponent - divisor.exponent;
  if (shift < 0) return false;
  const d = BigInt(divisor.digits);
  return (remainder(value.digits, d) * powerMod(10n, shift, d)) % d === 0n;
}

/** `digits mod d`, fifteen digits at a time, so a long coefficient is never one big integer. */
function remainder(digits: string, d: bigint): bigint {
  let r = 0n;
  for (let i = 0; i < digits.length; i += 15) {
    const chunk = digits.slice(i, i + 15);
    r = (r * 10n ** BigInt(chunk.length) + BigInt(chunk)) % d;
  }
  return r;
}

/** `base^exponent mod m` by squaring: logarithmic in the exponent. */
function powerMod(base: bigint, exponent: number, m: bigint): bigint {
  let result = 1n % m;
  let b = base % m;
  let e = exponent;
  while (e > 0) {
    if (e % 2 === 1) result = (result * b) % m;
    b = (b * b) % m;
    e = Math.floor(e / 2);
  }
  return result;
}

/**
 * Decimal text of an exact value, as JSON would write it: plain digits while that stays short, otherwise
 * scientific notation with every significant digit (`1e400`, `-1.5e-400`). Distinct values get distinct text.
 */
export function formatExact(value: ExactDecimal): string {
  const sign = value.negative ? '-' : '';
  const { digits, exponent } = value;
  if (exponent >= 0 && exponent <= 40) return `${sign}${digits}${'0'.repeat(exponent)}`;
  if (exponent < 0 && -exponent <= digits.length + 40) {
    const padded = digits.padStart(-exponent + 1, '0');
    const point = padded.length + exponent;
    return `${sign}${padded.slice(0, point)}.${padded.slice(point)}`;
  }
  return scientificExact(value);
}

/** Every significant digit with an exponent, never a `+`: `1.152921504606847e18`, `1e400`, `-1.5e-400`. */
export function scientificExact(value: ExactDecimal): string {
  const { digits } = value;
  const scientific = value.exponent + digits.length - 1;
  return `${value.negative ? '-' : ''}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${scientific}`;
}

/** Short text for messages: at most 40 significant digits, marked with `…` when cut. */
export function displayExact(value: ExactDecimal): string {
  if (value.digits.length <= 40) return formatExact(value);
  const sign = value.negative ? '-' : '';
  const scientific = value.exponent + value.digits.length - 1;
  return `${sign}${value.digits[0]}.${value.digits.slice(1, 40)}…e${scientific}`;
}

/** A key under which equal values meet. */
export const exactKey = (value: ExactDecimal): string => `${value.negative ? '-' : ''}${value.digits}e${value.exponent}`;
