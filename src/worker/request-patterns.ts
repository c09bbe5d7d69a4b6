import { hasPatternKeys } from '../engine/schema/index.ts';
import type { WorkerRequest } from '../protocol/validator-service.ts';
import { batchSize, compilesNothing, getRequest, type LaneBatch } from '../wire/index.ts';

/**
 * Whether a request may compile a schema with a `pattern` or `patternProperties`, so needs the linear-time matcher.
 * It over-approximates (any key so named, anywhere in what the request carries; for lossless JSON text, the word or
 * any `\u` escape, which could spell it), never the other way round: a request it misses would fail closed
 * (`Re2Unavailable`), not pass unchecked. A request that compiles nothing (`compilesNothing`) names a schema this
 * worker compiled, patterns and all.
 */
export function requestMayHavePatterns(request: WorkerRequest): boolean {
  if (compilesNothing(request)) return false;
  switch (request.op) {
    case 'compileTools':
      return mayHavePatterns(request.tools, request.encoded?.includes('tools') === true);
    case 'compile':
    case 'validateElicitation':
      return mayHavePatterns(request.schema, request.encoded?.includes('schema') === true);
    case 'validate':
    case 'validateJson':
      return mayHavePatterns(request.schema, request.encoded?.includes('schema') === true);
    case 'validateArguments':
    case 'validateStructured':
    case 'stats':
      return false;
  }
}

/** Whether any request of a lane batch may (see `requestMayHavePatterns`). */
export function batchMayHavePatterns(batch: LaneBatch): boolean {
  const size = batchSize(batch);
  for (let i = 0; i < size; i++) if (requestMayHavePatterns(getRequest(batch, i))) return true;
  return false;
}

function mayHavePatterns(value: unknown, encoded: boolean): boolean {
  if (encoded) {
    const text = String(value);
    return text.includes('pattern') || text.includes('\\u');
  }
  return hasPatternKeys(value);
}
