import type { Engine } from '../../../src/engine/index.ts';
import type { ValidationOutcome } from '../../../src/protocol/index.ts';

/**
 * Validates an instance against a schema *value*. A string is judged as a schema (and refused), never looked up as a
 * fingerprint: this isolate's cache is not something a caller at the edge can rely on or should probe.
 */
export function validateAgainst(engine: Engine, schema: unknown, instance: unknown): ValidationOutcome {
  if (typeof schema === 'string') {
    const { result } = engine.compile(schema);
    if (result.status === 'refused') return { status: 'refused', refusal: result.refusal };
  }
  return engine.validate(schema as object | boolean, instance);
}

/** The same, with the instance as JSON text parsed losslessly (what structured-clone RPC cannot carry exactly). */
export function validateJsonAgainst(engine: Engine, schema: unknown, text: string): ValidationOutcome {
  if (typeof schema === 'string') {
    const { result } = engine.compile(schema);
    if (result.status === 'refused') return { status: 'refused', refusal: result.refusal };
  }
  return engine.validateJson(schema as object | boolean, text);
}
