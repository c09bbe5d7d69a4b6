import type { EngineStats, ValidationOutcome } from './outcome.ts';
import type { Policy } from './policy.ts';
import type { SchemaVerdict, ToolVerdict } from './tool.ts';
import type { SchemaWarning } from './warning.ts';

/** A schema, or the fingerprint of one compiled earlier. */
export type SchemaOrFingerprint = string | object | boolean;

/** A compiled (or refused) schema, referred to by fingerprint afterwards. */
export type CompiledSchemaInfo = SchemaVerdict & {
  readonly fingerprint: string;
  readonly warnings: readonly SchemaWarning[];
};

/**
 * The validation service (docs/architecture.md#worker-rpc), the same in a worker, in-thread and at the edge. Methods return data for
 * every validation outcome; they reject only for operational failures, with a stable `code`
 * (`TIMEOUT`, `WORKER_CRASHED`, `CLOSED`, `UNKNOWN_FINGERPRINT`, `INVALID_ARGUMENT`).
 */
export interface ValidatorService {
  compileTools(tools: readonly unknown[]): Promise<ToolVerdict[]>;
  compile(schema: unknown): Promise<CompiledSchemaInfo>;
  validateArguments(toolFingerprint: string, args: unknown): Promise<ValidationOutcome>;
  validateStructured(toolFingerprint: string, structuredContent: unknown): Promise<ValidationOutcome>;
  validateElicitation(requestedSchema: unknown, content: unknown): Promise<ValidationOutcome>;
  validate(schema: SchemaOrFingerprint, instance: unknown): Promise<ValidationOutcome>;
  validateJson(schema: SchemaOrFingerprint, text: string): Promise<ValidationOutcome>;
  stats(): Promise<EngineStats>;
}

/** Fields of a request sent as lossless JSON text because they hold numbers a structured clone would lose. */
export type EncodedField = 'schema' | 'instance' | 'tools';

/** One operation as it crosses the worker boundary (several travel in one message). */
export type WorkerRequest = WorkerOperation & { readonly encoded?: readonly EncodedField[] };

/** The operations a worker performs. */
export type WorkerOperation =
  | { readonly op: 'compileTools'; readonly tools: readonly unknown[] }
  | { readonly op: 'compile'; readonly schema: unknown }
  | { readonly op: 'validateArguments'; readonly fingerprint: string; readonly instance: unknown }
  | { readonly op: 'validateStructured'; readonly fingerprint: string; readonly instance: unknown }
  | { readonly op: 'validateElicitation'; readonly schema: unknown; readonly instance: unknown }
  | { readonly op: 'validate'; readonly schema: SchemaOrFingerprint; readonly instance: unknown }
  | { readonly op: 'validateJson'; readonly schema: SchemaOrFingerprint; readonly text: string }
  | { readonly op: 'stats' };

/** One operation's answer: a value, or an operational failure as data (Comlink drops custom error fields). */
export type WorkerResponse =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** What configures the engine inside a worker. */
export interface WorkerEngineOptions {
  readonly policy?: Partial<Policy>;
}

/** The worker's end of the data lane (a `MessagePort` transferred in `init`; its messages: src/wire/lane.ts). */
export interface LanePort {
  postMessage(message: unknown): void;
}

/** What the host hands the worker once, with the lane. */
export interface WorkerInit {
  readonly engine: WorkerEngineOptions;
  /**
   * Shared memory for progress, when the platform can share it with the worker (layout: src/wire/progress-memory.ts):
   * sequence numbers (modulo 2^32) of each finished and, when the buffer has room, each started request, and the
   * host's clock when it posted its last batch (the Node worker learns from it how long a wake-up takes).
   * Absent: finished requests as lane messages, starts not reported.
   */
  readonly progress?: SharedArrayBuffer;
}

/**
 * What the worker exposes over Comlink: `init` only. Every request travels on the data lane it hands over
 * (docs/decisions/006-worker-protocol.md), the one data path.
 */
export interface WorkerApi {
  /** Hands the worker its end of the data lane, the engine options and, where possible, the progress memory. */
  init(lane: LanePort, options: WorkerInit): void;
}
