// The pure engine: no DOM, Worker or Node APIs. Adapters at the edges import from here.
export { createCfworkerAdapter } from './adapters/cfworker-adapter.ts';
export { type CheckedSchema, type CheckResult, checkSchema } from './check-schema.ts';
export { type CompiledSchema, type CompileResult, type CompileSchemaOptions, compileSchema } from './compile-schema.ts';
export { toolRefusal } from './compile-tool.ts';
export { createEngine, type Engine, type EngineOptions, type SchemaRef } from './create-engine.ts';
export { resolveDialect } from './dialect.ts';
export { EngineError, type EngineErrorCode } from './engine-error.ts';
export { canonicalJson, fingerprint, toolFingerprint } from './fingerprint.ts';
export { formatIssue, formatIssues } from './format-issue.ts';
export { jsonPath } from './json-path.ts';
export { createLruCache, type LruCache } from './lru-cache.ts';
export { type ParseJsonFailure, type ParseJsonLimits, type ParseJsonResult, parseJson } from './parse-json.ts';
export { defaultPolicy, policyHash, resolvePolicy } from './policy.ts';
export type { AdapterCompileInput, CompiledAdapterSchema, LeafFailure, SchemaValidatorAdapter } from './schema-validator-adapter.ts';
export type { FormatMode } from './walk-schema.ts';

/** Bumped whenever a verdict for the same schema could change; part of persistent cache keys. */
export const engineVersion = '0.1.0';
export { checkElicitationSchema, elicitationDefaults } from './check-elicitation-schema.ts';
