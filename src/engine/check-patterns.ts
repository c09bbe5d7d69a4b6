import type { Refusal } from '../protocol/refusal.ts';
import { linearPatternsAvailable } from './adapters/linear-regexp-scope.ts';
import { visitTicks } from './estimate-work.ts';
import { compileLinearPattern } from './linear-pattern.ts';
import { truncate } from './truncate.ts';

/**
 * The shortest string every admitted pattern can be tested on within `maxWork`. A pattern whose program costs more
 * per character could not check an ordinary field (a name, a path, a sentence) without the instance being answered
 * `maxWork`, so it is refused at compile time, where the server's author sees why (docs/policy.md#what-a-pattern-costs).
 */
export const minPatternChars = 1024;

/**
 * Refuses a `pattern` or `patternProperties` key (a `propertyNames` pattern is a `pattern` too) that is not a
 * JavaScript `u`-flag RegExp, that the linear-time matcher cannot run, or whose program costs so much per character
 * that a `minPatternChars`-character string would exceed `maxWork`, so no instance ever reaches one.
 * In a runtime whose `RegExp` global cannot be replaced, every pattern is refused: never backtrack silently.
 */
export function checkPatterns(patterns: readonly { pattern: string; pointer: string }[], maxWork: number): Refusal | undefined {
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
    const quoted = `${pointer}: ${JSON.stringify(truncate(pattern))}`;
    if (!compiled.ok) return { code: 'invalid_pattern', message: `${quoted} ${compiled.reason}` };
    const { charTicks, instructions, width } = compiled.cost;
    if (charTicks * minPatternChars > maxWork * visitTicks) {
      const perChar = (charTicks / visitTicks).toFixed(1);
      return {
        code: 'invalid_pattern',
        message:
          `${quoted} costs ${perChar} work units per character (${instructions} instructions, up to ${width} live at once), ` +
          `so a ${minPatternChars}-character string would exceed maxWork (${maxWork})`,
      };
    }
  }
  return undefined;
}
