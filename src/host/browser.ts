// `schemaval/host` for browsers: worker mode runs the engine in a module Web Worker (the built `schemaval/worker`).
// Nothing here imports the engine's compiler or validator, so the page's main thread does not carry them; inline
// mode is its own entry, `schemaval/host/inline` (inline-validator.ts).

import { createValidator as createGenericValidator, type Validator, type ValidatorOptions } from './create-validator.ts';
import { spawnBrowserWorker } from './spawn-browser-worker.ts';

export { checkElicitationSchema, elicitationDefaults } from '../engine/forms/index.ts';
export { toolRefusal } from '../engine/tools/index.ts';
export type { Validator, ValidatorOptions } from './create-validator.ts';
export { type ElicitationHost, withElicitationValidation } from './elicitation-guard.ts';
export { createIdbVerdictCache } from './idb-verdict-cache.ts';
export { type SchemavalProviderOptions, schemavalProvider } from './schemaval-provider.ts';
export { type SpawnBrowserWorkerOptions, spawnBrowserWorker } from './spawn-browser-worker.ts';
export { ValidatorError, type ValidatorErrorCode } from './validator-error.ts';
export { createMemoryVerdictCache, type VerdictCache } from './verdict-cache.ts';
export {
  type McpClientLike,
  type SchemaValidationOptions,
  type SchemaValidationWarning,
  withSchemaValidation,
} from './with-schema-validation.ts';
export type { LaneEnd, SpawnWorker, WorkerHandle } from './worker-handle.ts';

/** Options of the browser `createValidator`: worker mode only (inline mode: `schemaval/host/inline`). */
export interface BrowserValidatorOptions extends Omit<ValidatorOptions, 'mode'> {
  /** Only `worker`; `inline` throws INVALID_ARGUMENT naming `createInlineValidator` from `schemaval/host/inline`. */
  readonly mode?: 'worker';
  /**
   * Where the worker script (`schemaval/worker`) is served from. Default: the `worker.js` beside this module, which
   * Vite and webpack 5 find on their own; with esbuild, copy `schemaval/worker` into the site and pass its URL.
   */
  readonly workerUrl?: URL | string;
}

/** `createValidator` with a module Web Worker as the default isolate (`spawn`, if given, wins over `workerUrl`). */
export function createValidator(options: BrowserValidatorOptions = {}): Validator {
  const { workerUrl, ...rest } = options;
  return createGenericValidator({ spawn: spawnBrowserWorker(workerUrl), ...rest });
}
