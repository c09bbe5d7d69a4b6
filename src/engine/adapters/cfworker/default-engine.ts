// The default engine: the core with cfworker's adapter wired in. The adapter room imports the core, never the reverse.
import { type CompileResult, type CompileSchemaOptions, compileSchema as compileWith } from '../../core/compile-schema.ts';
import { createEngine as createEngineWith, type Engine, type EngineOptions } from '../../core/create-engine.ts';
import type { SchemaValidatorAdapter } from '../../schema/schema-validator-adapter.ts';
import { createCfworkerAdapter } from './cfworker-adapter.ts';

let shared: SchemaValidatorAdapter | undefined;

/** One cfworker adapter for every default engine and compile (it holds no state of its own). */
function defaultAdapter(): SchemaValidatorAdapter {
  shared ??= createCfworkerAdapter();
  return shared;
}

/** `createEngine` with @cfworker/json-schema behind it unless `options.adapter` names another library. */
export function createEngine(options: EngineOptions = {}): Engine {
  return createEngineWith({ ...options, adapter: options.adapter ?? defaultAdapter() });
}

/** `compileSchema` with @cfworker/json-schema behind it unless `options.adapter` names another library. */
export function compileSchema(schema: unknown, options: CompileSchemaOptions = {}): CompileResult {
  return compileWith(schema, { ...options, adapter: options.adapter ?? defaultAdapter() });
}
