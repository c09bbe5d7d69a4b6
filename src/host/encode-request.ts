import { isLosslessNumber, stringify } from 'lossless-json';
import type { EncodedField, WorkerRequest } from '../protocol/validator-service.ts';

/**
 * A structured clone keeps `bigint`s but turns lossless-json numbers into plain objects. Fields that hold one
 * travel as lossless JSON text instead, and the worker parses them back exactly. Only the fields a request kind
 * has are looked at, a field that is not an object is skipped at once, and the walk allocates nothing.
 */
export function encodeRequest(request: WorkerRequest): WorkerRequest {
  switch (request.op) {
    case 'validateArguments':
    case 'validateStructured':
      return holdsLossless(request.instance, 0) ? encode(request, ['instance']) : request;
    case 'validate':
    case 'validateElicitation': {
      const schema = holdsLossless(request.schema, 0);
      const instance = holdsLossless(request.instance, 0);
      if (!schema && !instance) return request;
      return encode(request, schema && instance ? ['schema', 'instance'] : schema ? ['schema'] : ['instance']);
    }
    case 'validateJson':
    case 'compile':
      return holdsLossless(request.schema, 0) ? encode(request, ['schema']) : request;
    case 'compileTools':
      return holdsLossless(request.tools, 0) ? encode(request, ['tools']) : request;
    default:
      return request;
  }
}

function encode(request: WorkerRequest, encoded: EncodedField[]): WorkerRequest {
  const out: Record<string, unknown> = { ...request, encoded };
  for (const field of encoded) out[field] = stringify(out[field]);
  return out as unknown as WorkerRequest;
}

function holdsLossless(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > 1000) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsLossless(value[i], depth + 1)) return true;
    return false;
  }
  if (isLosslessNumber(value)) return true;
  for (const key in value) {
    if (Object.hasOwn(value, key) && holdsLossless((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}
