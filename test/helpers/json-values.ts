// Small pools of JSON values for differential tests: few enough that schemas and instances collide often,
// chosen to sit on the edges validators get wrong (1 vs 1.0, astral characters, 2^52..2^53, -0).
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Property names shared by schemas and instances, so `properties`, `required` and friends actually meet. */
export const propertyNames = ['a', 'b', 'c', 'x', 'constructor'] as const;

/** Numbers instances and bounds are drawn from: integers, halves, decimals, and the 2^52..2^53 band. */
export const numberPool: readonly number[] = [
  0,
  -0,
  1,
  -1,
  2,
  3,
  10,
  0.5,
  2.5,
  -2.5,
  0.1,
  0.3,
  1.5,
  2 ** 52,
  2 ** 52 + 1,
  2 ** 53 - 2,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
];

/** Strings with ASCII, a BMP non-ASCII character and astral characters (one code point, two UTF-16 units). */
export const stringPool: readonly string[] = ['', 'a', 'b', 'ab', 'x', 'aa', 'é', '😀', 'a😀', '😀😀', '1', '10', 'abc', 'a😀b😀'];

/** String characters used to build strings of an exact code-point length. */
export const stringUnits: readonly string[] = ['a', 'b', 'x', '1', 'é', '😀', '𝄞'];

export const numberArb: fc.Arbitrary<number> = fc.constantFrom(...numberPool);
export const stringArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...stringPool),
  fc.array(fc.constantFrom(...stringUnits), { maxLength: 4 }).map((units) => units.join('')),
);
export const keyArb: fc.Arbitrary<string> = fc.constantFrom(...propertyNames);

/** Any JSON value, small: scalars from the pools, arrays and objects up to three members, two levels deep. */
export const jsonArb: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    numberArb,
    stringArb,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(keyArb, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** A scalar JSON value (what `enum` members and `const` values mostly are). */
export const scalarArb: fc.Arbitrary<Json> = fc.oneof(fc.constant(null), fc.boolean(), numberArb, stringArb);

/** A string of exactly `length` code points. */
export function stringOfLength(length: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...stringUnits), { minLength: length, maxLength: length }).map((units) => units.join(''));
}

/**
 * JSON text for a value with integers sometimes written as `1.0` (the same number in JSON Schema), so the
 * engine's text path is exercised with values the oracle gets from `JSON.parse`.
 */
export function jsonText(value: Json, pointInts: boolean): string {
  if (!pointInts) return JSON.stringify(value);
  const write = (item: Json): string => {
    if (typeof item === 'number')
      return Number.isInteger(item) && Math.abs(item) < 2 ** 53 ? `${JSON.stringify(item)}.0` : JSON.stringify(item);
    if (Array.isArray(item)) return `[${item.map(write).join(',')}]`;
    if (item !== null && typeof item === 'object') {
      return `{${Object.entries(item)
        .map(([key, member]) => `${JSON.stringify(key)}:${write(member)}`)
        .join(',')}}`;
    }
    return JSON.stringify(item);
  };
  return write(value);
}
