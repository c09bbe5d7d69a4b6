import type { Refusal } from './refusal.ts';
import type { Verdict } from './verdict.ts';

/**
 * What checking an instance against a schema yields, told apart by `status`: `valid`, `invalid` with its issues, or
 * `refused` with the schema's refusal (docs/decisions/018-one-outcome-shape.md).
 */
export type ValidationOutcome = Verdict | Refused;

/** The one shape of a refusal, wherever one is answered: a schema, a tool, an elicitation form. */
export interface Refused {
  readonly status: 'refused';
  readonly refusal: Refusal;
}

/** Counters a service reports for monitoring. */
export interface EngineStats {
  /** Compiled schemas and refusals held in memory. */
  readonly cachedSchemas: number;
  readonly cachedTools: number;
  readonly compiles: number;
  readonly cacheHits: number;
  readonly validations: number;
}
