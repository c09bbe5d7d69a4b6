import type { Context } from 'hono';
import type { Engine } from '../../../src/engine/index.ts';
import { errorResponse } from './error-response.ts';
import { readJsonBody } from './read-json-body.ts';

/** `POST /v1/tools` → 200 `{"tools":[verdicts]}`, the shape of `schemaval lint --json` (docs/architecture.md#cli). */
export function toolsRoute(engine: Engine, maxBodyBytes: number): (c: Context) => Promise<Response> {
  return async function tools(c) {
    const body = await readJsonBody(c.req.raw, maxBodyBytes);
    if (!body.ok) return errorResponse(c, body.status, body.code, body.message);
    const list = toolList(body.value);
    if (list === undefined) {
      return errorResponse(c, 400, 'bad_request', 'body must be a tools/list result {"tools":[...]} or an array of tools');
    }
    return c.json({ tools: engine.compileTools(list) }, 200);
  };
}

/** What `schemaval lint` reads: `{"tools":[...]}`, a bare array, or a whole JSON-RPC response `{"result":{"tools":[...]}}`. */
function toolList(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const object = value as { tools?: unknown; result?: { tools?: unknown } };
  if (Array.isArray(object.tools)) return object.tools;
  if (Array.isArray(object.result?.tools)) return object.result.tools;
  return undefined;
}
