import type { Refusal } from './refusal.ts';
import type { Verdict } from './verdict.ts';

/** What checking an instance against a schema yields: a verdict, or the schema's refusal. */
export type ValidationOutcome = Verdict | { readonly refused: Refusal };

/** Counters a service reports for monitoring. */
export interface EngineStats {
  /** Compiled schemas and refusals held in memory. */
  readonly cachedSchemas: number;
  readonly cachedTools: number;
  readonly compiles: number;
  readonly cacheHits: number;
  readonly validations: number;
}
