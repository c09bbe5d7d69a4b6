import type { Engine } from '../engine/create-engine.ts';
import type { WorkerRequest } from '../protocol/validator-service.ts';

/** Carries out one request on the engine. Validation outcomes are values; operational failures throw. */
export async function runRequest(engine: Engine, request: WorkerRequest): Promise<unknown> {
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
