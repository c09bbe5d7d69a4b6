import { isLosslessNumber, stringify } from 'lossless-json';
import type { EncodedField, WorkerRequest } from '../protocol/validator-service.ts';

const fields: readonly EncodedField[] = ['schema', 'instance', 'tools'];

/**
 * A structured clone keeps `bigint`s but turns lossless-json numbers into plain objects. Fields that hold one
 * travel as lossless JSON text instead, and the worker parses them back exactly.
 */
export function encodeRequest(request: WorkerRequest): WorkerRequest {
  let encoded: EncodedField[] | undefined;
  let out: Record<string, unknown> | undefined;
  for (const field of fields) {
    const value = (request as Record<string, unknown>)[field];
    if (!holdsLossless(value, 0)) continue;
    out ??= { ...request };
    encoded ??= [];
    out[field] = stringify(value);
    encoded.push(field);
  }
  return out === undefined ? request : ({ ...out, encoded } as unknown as WorkerRequest);
}

function holdsLossless(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > 1000) return false;
  if (isLosslessNumber(value)) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (holdsLossless(child, depth + 1)) return true;
  return false;
}
