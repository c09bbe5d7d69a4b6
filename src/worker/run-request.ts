import type { Engine } from '../engine/core/index.ts';
import { EngineError } from '../engine/core/index.ts';
import { parseJson } from '../engine/json/index.ts';
import type { CompiledSchemaInfo, WorkerOperation, WorkerRequest } from '../protocol/validator-service.ts';

/** Generous: the engine applies the policy's own bounds after decoding. */
const decodeLimits = { maxBytes: 256 * 1024 * 1024, maxDepth: 10_000 };

/** Carries out one request on the (synchronous) engine. Validation outcomes are values; operational failures throw. */
export function runRequest(engine: Engine, wire: WorkerRequest): unknown {
  const request = decode(wire);
  switch (request.op) {
    case 'compileTools':
      return engine.compileTools(request.tools);
    case 'compile': {
      const { fingerprint, result } = engine.compile(request.schema);
      const info: CompiledSchemaInfo =
        result.status === 'accepted'
          ? { status: 'accepted', fingerprint, warnings: result.schema.warnings }
          : { status: 'refused', refusal: result.refusal, fingerprint, warnings: [] };
      return info;
    }
    case 'validateArguments':
      return engine.validateArguments(request.fingerprint, request.instance);
    case 'validateStructured':
      return engine.validateStructured(request.fingerprint, request.instance);
    case 'validateElicitation':
      return engine.validateElicitation(request.schema, request.instance);
    case 'validate':
      // Answer with the fingerprint too, so the host can refer to the schema by it from now on.
      if (typeof request.schema === 'string')
        return { fingerprint: request.schema, outcome: engine.validateCompiled(request.schema, request.instance) };
      return compileThen(engine, request.schema, (ref) => engine.validate(ref, request.instance));
    case 'validateJson':
      if (typeof request.schema === 'string')
        return { fingerprint: request.schema, outcome: engine.validateJson(request.schema, request.text) };
      return compileThen(engine, request.schema, (ref) => engine.validateJson(ref, request.text));
    case 'stats':
      return engine.stats();
  }
}

/** Compiles a schema object (a cache hit after the first time), then validates by its fingerprint. */
function compileThen(
  engine: Engine,
  schema: object | boolean,
  validate: (ref: string | object | boolean) => unknown,
): { fingerprint: string; outcome: unknown } {
  const { fingerprint } = engine.compile(schema);
  // No fingerprint (no canonical form): validate the object itself, which compiles it uncached.
  return { fingerprint, outcome: validate(fingerprint === '' ? schema : fingerprint) };
}

/** Parses the fields the host sent as lossless JSON text (see host/encode-request.ts). */
function decode(request: WorkerRequest): WorkerOperation {
  if (request.encoded === undefined) return request;
  const out: Record<string, unknown> = { ...request };
  for (const field of request.encoded) {
    const parsed = parseJson(String(out[field]), decodeLimits);
    if (!parsed.ok) throw new EngineError('INVALID_ARGUMENT', `${field} could not be decoded: ${parsed.message}`);
    out[field] = parsed.value;
  }
  return out as unknown as WorkerOperation;
}
