// The pure engine: no DOM, Worker or Node APIs. Adapters at the edges import from here.
// The default engine is the core with cfworker's adapter wired in (adapters/cfworker/default-engine.ts).
export { cfworkerAdapterId } from './adapters/cfworker/adapter-id.ts';
export { createCfworkerAdapter } from './adapters/cfworker/cfworker-adapter.ts';
export { compileSchema, createEngine } from './adapters/cfworker/default-engine.ts';
export type { CompiledSchema, CompileResult, CompileSchemaOptions } from './core/compile-schema.ts';
export type { Engine, EngineOptions, SchemaRef } from './core/create-engine.ts';
export { EngineError, type EngineErrorCode } from './core/engine-error.ts';
export { createLruCache, type LruCache } from './core/lru-cache.ts';
export { formatIssue, formatIssues } from './issues/format-issue.ts';
export { canonicalJson, fingerprint, type HashText, hashText, toolFingerprint } from './json/fingerprint.ts';
export { jsonPath } from './json/json-path.ts';
export { type ParseJsonFailure, type ParseJsonLimits, type ParseJsonResult, parseJson } from './json/parse-json.ts';
export { type CheckResult, checkSchema } from './policy/check-schema.ts';
export type { CheckedSchema } from './policy/checked-schema.ts';
export { resolveDialect } from './policy/dialect.ts';
export { defaultPolicy, policyHash, resolvePolicy } from './policy/policy.ts';
export type { FormatMode } from './schema/schema-types.ts';
export type {
  AdapterCheckInput,
  AdapterCompileInput,
  CompiledAdapterSchema,
  LeafFailure,
  SchemaValidatorAdapter,
} from './schema/schema-validator-adapter.ts';
export { toolRefusal } from './tools/compile-tool.ts';

/** Bumped whenever a verdict for the same schema could change; part of persistent cache keys. */
export const engineVersion = '0.1.0';
// The data the engine's methods take and return (docs/api.md), so `schemaval/engine` alone types a program; the wire
// types of the worker lane stay in `schemaval/protocol`.
export type { Dialect } from '../protocol/dialect.ts';
export type { Issue } from '../protocol/issue.ts';
export type { EngineStats, Refused, ValidationOutcome } from '../protocol/outcome.ts';
export type { Policy } from '../protocol/policy.ts';
export { type Refusal, type RefusalCode, refusalCodes } from '../protocol/refusal.ts';
export type { SchemaVerdict, ToolDefinition, ToolVerdict } from '../protocol/tool.ts';
export type { Verdict } from '../protocol/verdict.ts';
export type { SchemaWarning, WarningCode } from '../protocol/warning.ts';
export { checkElicitationSchema, elicitationDefaults } from './forms/check-elicitation-schema.ts';
