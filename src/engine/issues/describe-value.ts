import { isLosslessNumber } from 'lossless-json';
import { truncate } from '../json/truncate.ts';

/**
 * A short JSON rendering of a value for messages. `exact` supplies the digits of numbers a double could not
 * hold (at any depth); a lossless-json number prints its own digits.
 */
export function describeValue(value: unknown, exact?: (value: unknown) => string | undefined): string {
  if (isLosslessNumber(value)) return truncate((value as { value: string }).value, 60);
  const precise = exact?.(value);
  if (precise !== undefined) return truncate(precise, 60);
  let text: string;
  try {
    // A scalar has no nested numbers, and `exact` has already passed on it: a replacer (about 1.5 µs a call,
    // the most of an enum issue's message) would change nothing.
    if (exact === undefined || typeof value !== 'object' || value === null) text = JSON.stringify(value) ?? String(value);
    else {
      // Nested numbers: swap them for unique strings, then write the digits back unquoted.
      const swapped: string[] = [];
      const json = JSON.stringify(value, (_key, v: unknown) => {
        const digits = typeof v === 'number' ? exact(v) : undefined;
        if (digits === undefined) return v;
        swapped.push(digits);
        return `\u0000${swapped.length - 1}\u0000`;
      });
      text = (json ?? String(value)).replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => swapped[Number(i)] ?? '');
    }
  } catch {
    text = String(value);
  }
  return truncate(text, 60);
}
