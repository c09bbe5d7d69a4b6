import type { ValidationOutcome } from '../protocol/outcome.ts';

/** Schemas whose validation once overran the time budget: refused (`too_slow`) from then on, without a call. */
export interface TooSlowRegistry {
  mark(schema: unknown): void;
  has(schema: unknown): boolean;
  refusal(): ValidationOutcome;
}

export function createTooSlowRegistry(timeBudgetMs: number): TooSlowRegistry {
  const fingerprints = new Set<string>();
  const objects = new WeakSet<object>();
  return {
    mark(schema) {
      if (typeof schema === 'string') fingerprints.add(schema);
      else if (typeof schema === 'object' && schema !== null) objects.add(schema);
    },
    has(schema) {
      if (typeof schema === 'string') return fingerprints.has(schema);
      return typeof schema === 'object' && schema !== null && objects.has(schema);
    },
    refusal: () => ({
      refused: {
        code: 'too_slow',
        message: `validation against this schema once ran past the ${timeBudgetMs} ms budget; it is refused from now on`,
      },
    }),
  };
}
