import { WorkerEntrypoint } from 'cloudflare:workers';
import type { ToolVerdict, ValidationOutcome } from '../../../src/protocol/index.ts';
import { isolateEngine } from './isolate-engine.ts';
import { validateAgainst, validateJsonAgainst } from './validate-against.ts';

/**
 * Validation for other Workers over a service binding (docs/architecture.md#edge), e.g.
 * `services: [{ binding: "SCHEMAVAL", service: "schemaval-edge", entrypoint: "SchemavalRpc" }]`.
 * Outcomes are returned as data (the engine answers synchronously; over the binding they arrive as promises);
 * arguments arrive as structured clones, so use `validateJson` for integers past 2^53.
 */
export class SchemavalRpc extends WorkerEntrypoint {
  /** `{status:'valid'}`, `{status:'invalid',issues}` or `{status:'refused',refusal:{code,message}}`. */
  validate(schema: unknown, instance: unknown): ValidationOutcome {
    return validateAgainst(isolateEngine, schema, instance);
  }

  /** The same with the instance as JSON text, parsed losslessly. */
  validateJson(schema: unknown, text: string): ValidationOutcome {
    return validateJsonAgainst(isolateEngine, schema, text);
  }

  /** One verdict per tool, as `POST /v1/tools` and `schemaval lint --json` report them. */
  compileTools(tools: readonly unknown[]): ToolVerdict[] {
    return isolateEngine.compileTools(tools);
  }
}
