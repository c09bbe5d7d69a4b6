// Code points and code point ranges spelled the way RE2 reads them, and the ECMA character sets whose RE2
// spelling differs (`\s`, `.`): shared by the translator and its character reader.

export const maxCodePoint = 0x10ffff;

/** ECMA WhiteSpace and LineTerminator, which `\s` matches (RE2's `\s` is only [\t\n\f\r ]). */
export const whitespace: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** What `.` does not match without the `s` flag. */
export const lineTerminators: readonly (readonly [number, number])[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** What `[^]` and `[]` become: RE2 reads `[]…]` as a class holding `]`, so an empty class is spelled out. */
export const anything = `[${rangeItems([[0, maxCodePoint]])}]`;
export const nothing = `[^${rangeItems([[0, maxCodePoint]])}]`;

/** A code point as RE2 reads it literally: letters and digits as is, anything else as `\x{…}`. */
export function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return `\\x{${cp.toString(16)}}`;
}

export function rangeItems(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? literal(lo) : `${literal(lo)}-${literal(hi)}`)).join('');
}

/** The code points not in sorted, disjoint `ranges`. */
export function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= maxCodePoint) out.push([next, maxCodePoint]);
  return out;
}
