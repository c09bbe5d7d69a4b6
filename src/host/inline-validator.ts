// Inline mode: the engine in the calling thread. Its own module (and the `schemaval/host/inline` entry) so that a
// page importing only the worker-mode `createValidator` never bundles the engine on its main thread.

import { createEngine } from '../engine/index.ts';
import { resolvePolicy } from '../engine/policy/index.ts';
import type { Policy } from '../protocol/policy.ts';
import type { Validator } from './create-validator.ts';
import { toValidatorErrorCode, ValidatorError } from './validator-error.ts';

export interface InlineValidatorOptions {
  readonly policy?: Partial<Policy>;
  /** Only part of the policy (and so of cache keys): nothing can interrupt a synchronous validation. */
  readonly timeBudgetMs?: number;
}

/**
 * A `Validator` in this thread (`mode: 'inline'`), for hosts that cannot spawn workers and for tests. Same answers
 * as worker mode; only the static bounds protect it, there is no time budget. The engine answers synchronously:
 * here its answers become the `ValidatorService`'s promises and its `EngineError`s `ValidatorError`s.
 */
export function createInlineValidator(options: InlineValidatorOptions = {}): Validator {
  const policy = resolvePolicy({
    ...options.policy,
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
  });
  let closed = false;
  const engine = createEngine({ policy });
  const answer = <T>(work: () => T): Promise<T> => {
    if (closed) return Promise.reject(new ValidatorError('CLOSED', 'the validator is closed'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string') return Promise.reject(error);
      return Promise.reject(new ValidatorError(toValidatorErrorCode(code), error instanceof Error ? error.message : String(error)));
    }
  };
  return {
    mode: 'inline',
    policy,
    compileTools: (tools) => answer(() => engine.compileTools(tools)),
    compile: (schema) =>
      answer(() => {
        const { fingerprint, result } = engine.compile(schema);
        return result.status === 'accepted'
          ? { status: 'accepted', fingerprint, warnings: result.schema.warnings }
          : { status: 'refused', refusal: result.refusal, fingerprint, warnings: [] };
      }),
    validateArguments: (fingerprint, args) => answer(() => engine.validateArguments(fingerprint, args)),
    validateStructured: (fingerprint, content) => answer(() => engine.validateStructured(fingerprint, content)),
    validateElicitation: (schema, content) => answer(() => engine.validateElicitation(schema, content)),
    validate: (schema, instance) => answer(() => engine.validate(schema, instance)),
    validateJson: (schema, text) => answer(() => engine.validateJson(schema, text)),
    stats: () => answer(() => engine.stats()),
    close: async () => {
      closed = true;
    },
  };
}
