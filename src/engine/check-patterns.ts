import type { Refusal } from '../protocol/refusal.ts';
import { linearPatternsAvailable } from './adapters/linear-regexp-scope.ts';
import { compileLinearPattern } from './linear-pattern.ts';
import { truncate } from './truncate.ts';

/**
 * Refuses a `pattern` or `patternProperties` key (a `propertyNames` pattern is a `pattern` too) that is not a
 * JavaScript `u`-flag RegExp, or that the linear-time matcher cannot run, so no instance ever reaches one.
 * In a runtime whose `RegExp` global cannot be replaced, every pattern is refused: never backtrack silently.
 */
export function checkPatterns(patterns: readonly { pattern: string; pointer: string }[]): Refusal | undefined {
  if (patterns.length === 0) return undefined;
  if (!linearPatternsAvailable()) {
    const { pointer } = patterns[0] as { pointer: string };
    return { code: 'invalid_pattern', message: `${pointer}: this runtime does not allow the linear-time matcher` };
  }
  const seen = new Set<string>();
  for (const { pattern, pointer } of patterns) {
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    const compiled = compileLinearPattern(pattern);
    if (!compiled.ok) {
      return { code: 'invalid_pattern', message: `${pointer}: ${JSON.stringify(truncate(pattern))} ${compiled.reason}` };
    }
  }
  return undefined;
}
