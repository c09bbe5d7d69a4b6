import type { Context } from 'hono';
import type { Engine } from '../../../src/engine/index.ts';
import { errorResponse } from './error-response.ts';
import { readJsonBody } from './read-json-body.ts';
import { validateAgainst } from './validate-against.ts';

/** `POST /v1/validate` `{"schema":S,"instance":I}` → 200 verdict, 422 refusal (also a body too deep to parse), 400 bad body, 413 over the limit. */
export function validateRoute(engine: Engine, maxBodyBytes: number): (c: Context) => Promise<Response> {
  return async function validate(c) {
    const body = await readJsonBody(c.req.raw, maxBodyBytes);
    if (!body.ok) return errorResponse(c, body.status, body.code, body.message);
    const { value } = body;
    // Own properties only: `null` is a valid instance, a missing one is a client error.
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Object.hasOwn(value, 'schema') ||
      !Object.hasOwn(value, 'instance')
    ) {
      return errorResponse(c, 400, 'bad_request', 'body must be a JSON object {"schema":S,"instance":I}');
    }
    const { schema, instance } = value as { schema: unknown; instance: unknown };
    const outcome = validateAgainst(engine, schema, instance);
    if (outcome.status === 'refused') return errorResponse(c, 422, outcome.refusal.code, outcome.refusal.message);
    return c.json(outcome, 200);
  };
}
