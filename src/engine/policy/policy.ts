import type { Policy } from '../../protocol/policy.ts';
import { isPositiveInteger } from '../numbers/positive-integer.ts';

/** docs/architecture.md#schema-policy-and-refusal-codes defaults. Real servers publish up to ~84 KB, ~1,030 subschemas and JSON depth 24. */
export const defaultPolicy: Policy = Object.freeze({
  maxSchemaBytes: 262_144,
  maxJsonDepth: 64,
  maxSubschemaDepth: 32,
  maxSubschemas: 10_000,
  maxExpansion: 10_000,
  timeBudgetMs: 250,
  maxInstanceBytes: 1_048_576,
  maxInstanceDepth: 64,
  maxIssues: 100,
  maxWork: 50_000,
  maxCompiledBytes: 16 * 1024 * 1024,
  maxPointerBytes: 2 * 1024 * 1024,
});

const policyKeys = Object.keys(defaultPolicy) as (keyof Policy)[];

/** Fills a partial policy with defaults; throws a `TypeError` for a bound that is not a positive integer. */
export function resolvePolicy(overrides: Partial<Policy> = {}): Policy {
  const merged: Record<string, number> = { ...defaultPolicy };
  for (const key of policyKeys) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!isPositiveInteger(value)) {
      throw new TypeError(`policy.${key} must be a positive integer, got ${String(value)}`);
    }
    merged[key] = value;
  }
  return Object.freeze(merged) as unknown as Policy;
}

/** A short stable key for a policy, used in cache keys (the time budget does not change a compiled schema). */
export function policyHash(policy: Policy): string {
  return policyKeys
    .filter((key) => key !== 'timeBudgetMs')
    .map((key) => policy[key].toString(36))
    .join('.');
}
