// `schemaval/host` for browsers: pass `spawn: spawnBrowserWorker(new URL('./worker.js', import.meta.url))`.

export { checkElicitationSchema, elicitationDefaults } from '../engine/check-elicitation-schema.ts';
export { toolRefusal } from '../engine/compile-tool.ts';
export { createValidator, type Validator, type ValidatorOptions } from './create-validator.ts';
export { type ElicitationHost, withElicitationValidation } from './elicitation-guard.ts';
export { createIdbVerdictCache } from './idb-verdict-cache.ts';
export { type SchemavalProviderOptions, schemavalProvider } from './schemaval-provider.ts';
export { type SpawnBrowserWorkerOptions, spawnBrowserWorker } from './spawn-browser-worker.ts';
export { ValidatorError, type ValidatorErrorCode } from './validator-error.ts';
export { createMemoryVerdictCache, type VerdictCache } from './verdict-cache.ts';
export { type SchemaValidationOptions, type SchemaValidationWarning, withSchemaValidation } from './with-schema-validation.ts';
export type { LaneEnd, SpawnWorker, WorkerHandle } from './worker-handle.ts';
