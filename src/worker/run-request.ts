import type { Engine } from '../engine/create-engine.ts';
import { EngineError } from '../engine/engine-error.ts';
import { parseJson } from '../engine/parse-json.ts';
import type { WorkerOperation, WorkerRequest } from '../protocol/validator-service.ts';

/** Generous: the engine applies the policy's own bounds after decoding. */
const decodeLimits = { maxBytes: 256 * 1024 * 1024, maxDepth: 10_000 };

/** Carries out one request on the engine. Validation outcomes are values; operational failures throw. */
export async function runRequest(engine: Engine, wire: WorkerRequest): Promise<unknown> {
  const request = decode(wire);
  switch (request.op) {
    case 'compileTools':
      return engine.compileTools(request.tools);
    case 'compile': {
      const { fingerprint, result } = await engine.compile(request.schema);
      return { fingerprint, refusal: result.ok ? null : result.refusal, warnings: result.ok ? result.schema.warnings : [] };
    }
    case 'validateArguments':
      return engine.validateArguments(request.fingerprint, request.instance);
    case 'validateStructured':
      return engine.validateStructured(request.fingerprint, request.instance);
    case 'validateElicitation':
      return engine.validateElicitation(request.schema, request.instance);
    case 'validate':
    case 'validateJson': {
      // Answer with the fingerprint too, so the host can refer to the schema by it from now on.
      const fingerprint = typeof request.schema === 'string' ? request.schema : (await engine.compile(request.schema)).fingerprint;
      const ref = fingerprint === '' ? request.schema : fingerprint;
      const outcome =
        request.op === 'validate' ? await engine.validate(ref, request.instance) : await engine.validateJson(ref, request.text);
      return { fingerprint, outcome };
    }
    case 'stats':
      return engine.stats();
    case 'echo':
      return request.value;
  }
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
