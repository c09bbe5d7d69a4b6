// `schemaval/host` for browsers: pass `spawn: spawnBrowserWorker(new URL('./worker.js', import.meta.url))`.
export { createValidator, type Validator, type ValidatorOptions } from './create-validator.ts';
export { spawnBrowserWorker } from './spawn-browser-worker.ts';
export { ValidatorError, type ValidatorErrorCode } from './validator-error.ts';
export type { SpawnWorker, WorkerHandle } from './worker-handle.ts';
