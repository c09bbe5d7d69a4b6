// `schemaval/host` for Node: worker mode runs the engine in worker_threads.
import { createValidator as createGenericValidator, type Validator, type ValidatorOptions } from './create-validator.ts';
import { spawnNodeWorker } from './spawn-node-worker.ts';

export type { Validator, ValidatorOptions } from './create-validator.ts';
export { type SpawnNodeWorkerOptions, spawnNodeWorker } from './spawn-node-worker.ts';
export { ValidatorError, type ValidatorErrorCode } from './validator-error.ts';
export type { SpawnWorker, WorkerHandle } from './worker-handle.ts';

/** `createValidator` with Node `worker_threads` as the default isolate. */
export function createValidator(options: ValidatorOptions = {}): Validator {
  return createGenericValidator({ spawn: spawnNodeWorker(), ...options });
}
