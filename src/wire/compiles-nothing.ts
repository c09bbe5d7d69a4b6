import type { WorkerRequest } from '../protocol/validator-service.ts';

/**
 * Whether a request names only what the worker compiled earlier (a tool's or a schema's fingerprint) and so
 * compiles nothing. The host polls for such a request's reply (it comes within microseconds), and the page's
 * worker serves it without loading the linear-time matcher (its patterns were compiled with the schema). A schema
 * sent as lossless JSON text is a string too, but it is a schema, not a fingerprint.
 */
export function compilesNothing(request: WorkerRequest): boolean {
  switch (request.op) {
    case 'validateArguments':
    case 'validateStructured':
    case 'stats':
      return true;
    case 'validate':
    case 'validateJson':
      return typeof request.schema === 'string' && request.encoded?.includes('schema') !== true;
    case 'compileTools':
    case 'compile':
    case 'validateElicitation':
      return false;
  }
}
