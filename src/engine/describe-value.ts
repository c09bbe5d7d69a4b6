import { truncate } from './truncate.ts';

/** A short JSON rendering of a value for messages; `exact` supplies digits a double could not hold. */
export function describeValue(value: unknown, exact?: (value: unknown) => string | undefined): string {
  const precise = exact?.(value);
  if (precise !== undefined) return precise;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return truncate(text, 60);
}
