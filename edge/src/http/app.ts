import { Hono, type Env as HonoEnv } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { engineVersion } from '../../../src/engine/index.ts';
import { allowOrigins } from './allow-origins.ts';
import type { AppDeps } from './app-deps.ts';
import { defaultMaxBodyBytes } from './default-max-body-bytes.ts';
import { errorResponse } from './error-response.ts';
import { toolsRoute } from './tools-route.ts';
import { validateRoute } from './validate-route.ts';

/**
 * The edge HTTP API (docs/architecture.md#edge) as a Hono app. Reads no environment itself: everything comes in `deps`, and
 * handlers that need bindings (the `/mcp` gateway) read `c.env` per request.
 */
export function createApp<E extends HonoEnv = HonoEnv>(deps: AppDeps<E>): Hono<E> {
  const { engine } = deps;
  const maxBodyBytes = deps.maxBodyBytes ?? defaultMaxBodyBytes(engine.policy);
  const app = new Hono<E>();

  if (deps.corsOrigins !== undefined && deps.corsOrigins.length > 0) app.use('*', allowOrigins(deps.corsOrigins));

  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true, engineVersion, adapter: engine.adapterId });
  });
  app.post('/v1/validate', validateRoute(engine, maxBodyBytes));
  app.post('/v1/tools', toolsRoute(engine, maxBodyBytes));
  if (deps.mcp !== undefined) app.all('/mcp', deps.mcp);

  for (const [path, method] of [
    ['/healthz', 'GET'],
    ['/v1/validate', 'POST'],
    ['/v1/tools', 'POST'],
  ] as const) {
    app.all(path, (c) => {
      c.header('Allow', method === 'GET' ? 'GET, HEAD' : method);
      return errorResponse(c, 405, 'method_not_allowed', `${path} accepts ${method} only`);
    });
  }

  app.notFound((c) => errorResponse(c, 404, 'not_found', `no route for ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) return errorResponse(c, error.status, 'bad_request', error.message);
    // Log for the operator; the client gets a fixed message, never the error or its stack.
    console.error(error);
    return errorResponse(c, 500, 'internal', 'internal error');
  });
  return app;
}
