// Sets of code points as sorted, disjoint, inclusive ranges: what lookaround decomposition compares a one-character
// lookahead against, and how a narrowed class is spelled again.
import { complement } from './re2-ranges.ts';

/** A set of code points: sorted, disjoint, inclusive ranges. */
export type CodePoints = readonly (readonly [number, number])[];

export function intersect(a: CodePoints, b: CodePoints): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i] as readonly [number, number];
    const [blo, bhi] = b[j] as readonly [number, number];
    const lo = Math.max(alo, blo);
    const hi = Math.min(ahi, bhi);
    if (lo <= hi) out.push([lo, hi]);
    if (ahi < bhi) i++;
    else j++;
  }
  return out;
}

export function subtract(a: CodePoints, b: CodePoints): [number, number][] {
  return intersect(a, complement(b));
}

export function sameSet(a: CodePoints, b: CodePoints): boolean {
  return a.length === b.length && a.every(([lo, hi], i) => lo === b[i]?.[0] && hi === b[i]?.[1]);
}

/** Sorts and merges ranges into a set. */
export function normalize(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** A set as an ECMA `u`-flag class. */
export function classText(set: CodePoints): string {
  const cp = (c: number): string => `\\u{${c.toString(16)}}`;
  return `[${set.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join('')}]`;
}
