import type { Context, MiddlewareHandler } from 'hono';
import type { Engine } from '../../../src/engine/index.ts';
import type { Issue } from '../../../src/protocol/index.ts';
import { errorResponse } from './error-response.ts';
import { isolateEngine } from './isolate-engine.ts';
import { readJsonBody } from './read-json-body.ts';
import { validateAgainst } from './validate-against.ts';

/** Options of `validateBody`. */
export interface ValidateBodyOptions {
  /** The engine that compiles and validates (default: this isolate's shared engine, whose LRU keeps the schema). */
  readonly engine?: Engine;
  /** Largest accepted body in bytes (default: the engine policy's `maxInstanceBytes`, 1 MiB). */
  readonly maxBytes?: number;
}

/** The context variable a route reads the validated body from: `c.get('validatedBody')`. */
export type ValidatedBodyEnv<T = unknown> = { Variables: { validatedBody: T } };

/** An invalid body: 400 with the issues beside the usual `{"error":{code,message}}`. */
export interface InvalidBodyError {
  readonly error: { readonly code: 'invalid_body'; readonly message: string; readonly issues: readonly Issue[] };
}

/**
 * Hono middleware: reads the request body (size-bounded while streaming), parses it losslessly (integers past 2^53
 * stay exact as lossless-json `LosslessNumber`s), validates it against `schema` with the engine, and puts the value
 * on the context as `validatedBody` for the next handler (the body stream is consumed).
 *
 * Answers, as `POST /v1/validate` does: 413 `body_too_large`; 400 `bad_request` (not UTF-8 JSON, duplicate keys,
 * nested past 1,000 levels); 400 `invalid_body` with `issues` (the body breaks the schema: the client's fault, as
 * with Hono's own validator); 422 with the refusal code when the engine refuses `schema` itself (`remote_ref`,
 * `too_deep`, …), so a client can tell a wrong request from a route that cannot enforce its schema.
 */
export function validateBody<T = unknown>(
  schema: object | boolean,
  options: ValidateBodyOptions = {},
): MiddlewareHandler<ValidatedBodyEnv<T>> {
  const engine = options.engine ?? isolateEngine;
  const maxBytes = options.maxBytes ?? engine.policy.maxInstanceBytes;
  return async function validateBodyMiddleware(c: Context<ValidatedBodyEnv<T>>, next) {
    const body = await readJsonBody(c.req.raw, maxBytes);
    // Here the body is the instance, so one too deep to parse is the client's fault (400), not a refused schema.
    if (!body.ok && body.code === 'too_deep') return errorResponse(c, 400, 'bad_request', body.message);
    if (!body.ok) return errorResponse(c, body.status, body.code, body.message);
    const outcome = validateAgainst(engine, schema, body.value);
    if (outcome.status === 'refused') return errorResponse(c, 422, outcome.refusal.code, outcome.refusal.message);
    if (outcome.status === 'invalid') {
      const first = outcome.issues[0];
      const more = outcome.issues.length > 1 ? ` (and ${outcome.issues.length - 1} more)` : '';
      const message = first === undefined ? 'body is invalid' : `${first.path}: ${first.message}${more}`;
      return c.json({ error: { code: 'invalid_body', message, issues: outcome.issues } } satisfies InvalidBodyError, 400);
    }
    c.set('validatedBody', body.value as T);
    await next();
    return undefined;
  };
}
