import type { Refusal } from '../protocol/refusal.ts';
import { truncate } from './truncate.ts';

/** Refuses a `pattern` or `patternProperties` key that is not a JavaScript `u`-flag RegExp. */
export function checkPatterns(patterns: readonly { pattern: string; pointer: string }[]): Refusal | undefined {
  const seen = new Set<string>();
  for (const { pattern, pointer } of patterns) {
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    try {
      new RegExp(pattern, 'u');
    } catch {
      return {
        code: 'invalid_pattern',
        message: `${pointer}: ${JSON.stringify(truncate(pattern))} is not a valid regular expression (u flag)`,
      };
    }
  }
  return undefined;
}
