export type { Dialect } from './dialect.ts';
export type { Issue } from './issue.ts';
export type { EngineStats, Refused, ValidationOutcome } from './outcome.ts';
export type { Policy } from './policy.ts';
export { type Refusal, type RefusalCode, refusalCodes } from './refusal.ts';
export type { SchemaVerdict, ToolDefinition, ToolVerdict } from './tool.ts';
export type {
  CompiledSchemaInfo,
  EncodedField,
  LanePort,
  SchemaOrFingerprint,
  ValidatorService,
  WorkerApi,
  WorkerEngineOptions,
  WorkerInit,
  WorkerOperation,
  WorkerRequest,
  WorkerResponse,
} from './validator-service.ts';
export type { Verdict } from './verdict.ts';
export type { SchemaWarning, WarningCode } from './warning.ts';
