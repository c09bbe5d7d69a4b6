// `schemaval/host` for Node: worker mode runs the engine in worker_threads.

import type { ValidatorService } from '../protocol/validator-service.ts';
import { createValidator as createGenericValidator, type Validator, type ValidatorOptions } from './create-validator.ts';
import { type ElicitationHost, withElicitationValidation as withElicitationValidationOn } from './elicitation-guard.ts';
import { createInlineValidator } from './inline-validator.ts';
import { spawnNodeWorker } from './spawn-node-worker.ts';
import {
  type McpClientLike,
  type SchemaValidationOptions,
  withSchemaValidation as withSchemaValidationOn,
} from './with-schema-validation.ts';

export { checkElicitationSchema, elicitationDefaults } from '../engine/forms/index.ts';
export { toolRefusal } from '../engine/tools/index.ts';
export type { Validator, ValidatorOptions } from './create-validator.ts';
export type { ElicitationHost } from './elicitation-guard.ts';
export { createIdbVerdictCache } from './idb-verdict-cache.ts';
export { createInlineValidator, type InlineValidatorOptions } from './inline-validator.ts';
export { type SchemavalProviderOptions, schemavalProvider } from './schemaval-provider.ts';
export { type SpawnNodeWorkerOptions, spawnNodeWorker } from './spawn-node-worker.ts';
export { ValidatorError, type ValidatorErrorCode } from './validator-error.ts';
export { createMemoryVerdictCache, type VerdictCache } from './verdict-cache.ts';
export type { McpClientLike, SchemaValidationOptions, SchemaValidationWarning } from './with-schema-validation.ts';
export type { LaneEnd, SpawnWorker, WorkerHandle } from './worker-handle.ts';

/** `withSchemaValidation` with a worker_threads validator unless one is given. */
export function withSchemaValidation<C extends McpClientLike>(client: C, options: Partial<SchemaValidationOptions> = {}): C {
  return withSchemaValidationOn(client, { ...options, validator: options.validator ?? createValidator() });
}

/** `withElicitationValidation` (the v2 SDK client's MRTR elicitations) with a worker_threads validator unless one is given. */
export function withElicitationValidation<C extends ElicitationHost>(
  client: C,
  options: { readonly validator?: ValidatorService } = {},
): C {
  return withElicitationValidationOn(client, { validator: options.validator ?? createValidator() });
}

/**
 * `createValidator` with Node `worker_threads` as the default isolate; `mode: 'inline'` is `createInlineValidator`
 * (the engine costs a Node host nothing to load, unlike a page's main thread).
 */
export function createValidator(options: ValidatorOptions = {}): Validator {
  if (options.mode === 'inline') {
    const { policy, timeBudgetMs } = options;
    return createInlineValidator({ ...(policy !== undefined ? { policy } : {}), ...(timeBudgetMs !== undefined ? { timeBudgetMs } : {}) });
  }
  return createGenericValidator({ spawn: spawnNodeWorker(), ...options });
}
