import { resolvePolicy } from '../engine/policy/index.ts';
import type { Policy } from '../protocol/policy.ts';
import type { ValidatorService } from '../protocol/validator-service.ts';
import { ValidatorError } from './validator-error.ts';
import { createWorkerClient } from './worker-client.ts';
import type { SpawnWorker } from './worker-handle.ts';
import { createWorkerService } from './worker-service.ts';
import { defaultCompileBudgetMs } from './worker-watchdog.ts';

export interface ValidatorOptions {
  /**
   * `worker` (default): validation in an isolate the host can kill. `inline` (Node entry only; in a page use
   * `createInlineValidator` from `schemaval/host/inline`): in this thread, no time budget.
   */
  readonly mode?: 'worker' | 'inline';
  /** Wall-clock budget of one call in worker mode (docs/architecture.md#schema-policy-and-refusal-codes: 250 ms). */
  readonly timeBudgetMs?: number;
  /**
   * Worker mode: wall-clock budget of compiling one schema or one tool (each tool of `compileTools` has its own).
   * Default: eight validation budgets, at least 2 s.
   */
  readonly compileBudgetMs?: number;
  readonly policy?: Partial<Policy>;
  /** How to start a worker; `schemaval/host` supplies the platform's default. */
  readonly spawn?: SpawnWorker;
  /** Requests per message to the worker. */
  readonly maxBatch?: number;
}

/** A `ValidatorService` you can close. */
export interface Validator extends ValidatorService {
  readonly mode: 'worker' | 'inline';
  /** The policy the engine enforces (part of persistent cache keys). */
  readonly policy: Policy;
  /** Terminates the worker; pending and later calls reject with `CLOSED`. */
  close(): Promise<void>;
}

/**
 * Creates a worker-mode validator (docs/architecture.md#worker-rpc). It never imports the engine: inline mode is
 * `createInlineValidator` (inline-validator.ts, `schemaval/host/inline`), which the Node entry's `createValidator`
 * calls for `mode: 'inline'`; here `mode: 'inline'` is an INVALID_ARGUMENT error naming that entry.
 */
export function createValidator(options: ValidatorOptions = {}): Validator {
  const policy = resolvePolicy({
    ...options.policy,
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
  });
  const mode = options.mode ?? 'worker';
  if (mode === 'inline')
    throw new ValidatorError(
      'INVALID_ARGUMENT',
      "inline mode lives in its own entry, so a page's main thread ships no engine: use createInlineValidator() from 'schemaval/host/inline'",
    );
  if (mode !== 'worker') throw new ValidatorError('INVALID_ARGUMENT', `mode must be 'worker' or 'inline', got ${String(mode)}`);
  if (options.spawn === undefined)
    throw new ValidatorError('INVALID_ARGUMENT', 'worker mode needs a spawn function (schemaval/host provides one)');
  const compileBudgetMs = options.compileBudgetMs ?? defaultCompileBudgetMs(policy.timeBudgetMs);
  if (!(compileBudgetMs > 0)) throw new ValidatorError('INVALID_ARGUMENT', `compileBudgetMs must be positive, got ${compileBudgetMs}`);
  const client = createWorkerClient({
    spawn: options.spawn,
    timeBudgetMs: policy.timeBudgetMs,
    compileBudgetMs,
    maxBatch: options.maxBatch ?? 256,
    now: () => performance.now(),
    engine: { policy },
  });
  return {
    mode,
    policy,
    ...createWorkerService(client, { timeBudgetMs: policy.timeBudgetMs, compileBudgetMs }),
    close: async () => client.close(),
  };
}
