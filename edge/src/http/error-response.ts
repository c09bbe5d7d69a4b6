import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { RefusalCode } from '../../../src/protocol/index.ts';

/** Stable `error.code`s of the HTTP API: a refusal code (422) or one of these. */
export type HttpErrorCode = 'bad_request' | 'body_too_large' | 'not_found' | 'method_not_allowed' | 'misconfigured' | 'internal';

/** Every error body is `{"error":{"code","message"}}`: data a client can branch on, never a stack trace. */
export function errorResponse(c: Context, status: ContentfulStatusCode, code: HttpErrorCode | RefusalCode, message: string): Response {
  return c.json({ error: { code, message } }, status);
}
