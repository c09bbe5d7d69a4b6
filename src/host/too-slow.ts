import type { Refusal } from '../protocol/refusal.ts';

/** Validation timeouts of one schema in a row, with no finished validation between them, that refuse it. */
export const timeoutsInARow = 3;

/** A schema named by fingerprint, or a schema object the host has not had a fingerprint for yet. */
type Key = unknown;

/**
 * Which schemas ran past their budget because of themselves, answered `too_slow` from then on without a call
 * (docs/decisions/010-timeout-blame.md). A compile past its budget is the schema's fault at once: compiling does
 * not depend on any instance. A validation past its budget fails only that call, since the instance may be what
 * made it slow; the schema is refused after `timeoutsInARow` such timeouts with no validation finished in between.
 */
export interface TooSlowRegistry {
  /** A compile of this schema or tool ran past its budget. */
  compileTimedOut(key: Key): void;
  /** A validation against this schema ran past its budget; true when that makes the schema refused. */
  validationTimedOut(key: Key): boolean;
  /** A validation against this schema finished in time: its streak of timeouts starts over. */
  finished(key: Key): void;
  /** Whether a validation against this schema timed out and no validation has finished since (cheap to ask). */
  streaking(key: Key): boolean;
  /** The refusal a too-slow schema answers with, or undefined if it is not refused. */
  refusal(key: Key): Refusal | undefined;
}

export function createTooSlowRegistry(timeBudgetMs: number, compileBudgetMs: number): TooSlowRegistry {
  const refused = new Map<string, Refusal>();
  const refusedObjects = new WeakMap<object, Refusal>();
  const streaks = new Map<string, number>();
  const objectStreaks = new WeakMap<object, number>();
  const isObject = (key: Key): key is object => typeof key === 'object' && key !== null;

  const refuse = (key: Key, refusal: Refusal): void => {
    if (typeof key === 'string') {
      if (key !== '') refused.set(key, refusal);
    } else if (isObject(key)) refusedObjects.set(key, refusal);
  };
  const streakOf = (key: Key): number =>
    typeof key === 'string' ? (streaks.get(key) ?? 0) : isObject(key) ? (objectStreaks.get(key) ?? 0) : 0;

  return {
    compileTimedOut(key) {
      refuse(key, { code: 'too_slow', message: `compiling ran past its ${compileBudgetMs} ms budget; it is refused from now on` });
    },
    validationTimedOut(key) {
      const streak = streakOf(key) + 1;
      if (typeof key === 'string' && key !== '') streaks.set(key, streak);
      else if (isObject(key)) objectStreaks.set(key, streak);
      else return false;
      if (streak < timeoutsInARow) return false;
      refuse(key, {
        code: 'too_slow',
        message: `validation against this schema ran past the ${timeBudgetMs} ms budget ${streak} times in a row; it is refused from now on`,
      });
      return true;
    },
    finished(key) {
      if (typeof key === 'string') streaks.delete(key);
      else if (isObject(key)) objectStreaks.delete(key);
    },
    streaking(key) {
      // Most hosts never see a timeout: one size check answers for every fingerprint.
      if (typeof key === 'string') return streaks.size > 0 && streaks.has(key);
      return isObject(key) && objectStreaks.has(key);
    },
    refusal(key) {
      if (typeof key === 'string') return refused.size > 0 ? refused.get(key) : undefined;
      return isObject(key) ? refusedObjects.get(key) : undefined;
    },
  };
}
