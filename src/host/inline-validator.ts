// Inline mode: the engine in the calling thread. Its own module (and the `schemaval/host/inline` entry) so that a
// page importing only the worker-mode `createValidator` never bundles the engine on its main thread.

import { createEngine } from '../engine/core/index.ts';
import { resolvePolicy } from '../engine/policy/index.ts';
import type { Policy } from '../protocol/policy.ts';
import type { Validator } from './create-validator.ts';
import { createInlineService } from './inline-service.ts';
import { ValidatorError } from './validator-error.ts';

export interface InlineValidatorOptions {
  readonly policy?: Partial<Policy>;
  /** Only part of the policy (and so of cache keys): nothing can interrupt a synchronous validation. */
  readonly timeBudgetMs?: number;
}

/**
 * A `Validator` in this thread (`mode: 'inline'`), for hosts that cannot spawn workers and for tests. Same answers
 * as worker mode; only the static bounds protect it, there is no time budget.
 */
export function createInlineValidator(options: InlineValidatorOptions = {}): Validator {
  const policy = resolvePolicy({
    ...options.policy,
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
  });
  let closed = false;
  const service = createInlineService(createEngine({ policy }));
  const open =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      closed ? Promise.reject(new ValidatorError('CLOSED', 'the validator is closed')) : method(...args);
  return {
    mode: 'inline',
    policy,
    compileTools: open(service.compileTools),
    compile: open(service.compile),
    validateArguments: open(service.validateArguments),
    validateStructured: open(service.validateStructured),
    validateElicitation: open(service.validateElicitation),
    validate: open(service.validate),
    validateJson: open(service.validateJson),
    stats: open(service.stats),
    close: async () => {
      closed = true;
    },
  };
}
