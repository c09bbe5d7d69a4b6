/**
 * Whether `value` is a whole number from 1 to 2^53 − 1: what every policy bound must be. One check for every
 * surface that takes a bound from outside: `resolvePolicy` (which throws), the CLI's flags (a usage error), the
 * edge's `vars` (a configuration error) and the page's query (which keeps the default).
 */
export const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * A bound written as text, digits only (no sign, point, exponent or space), as the CLI's flags and the edge's `vars`
 * take it; undefined unless it is a positive integer.
 */
export function positiveIntegerText(text: string): number | undefined {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return isPositiveInteger(value) ? value : undefined;
}
