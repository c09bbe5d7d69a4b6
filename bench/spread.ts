// Min / median / max of a figure that was taken several times (rounds of a paired comparison, repeated runs).
import { type Measurement, median } from './harness.ts';

export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('no values');
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/** `a`'s time over `b`'s in each round the two ran back to back. */
export function roundRatios(a: Measurement, b: Measurement): number[] {
  return a.samples.map((value, i) => value / (b.samples[i] as number));
}

/** The value at percentile `p` (0–100), nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** `1.02/1.10/1.31x`, or one figure when every run agrees to the digits shown. */
export function formatSpreadOf(spread: Spread, format: (value: number) => string): string {
  const parts = [spread.min, spread.median, spread.max].map(format);
  return parts[0] === parts[2] ? (parts[1] as string) : parts.join('/');
}
