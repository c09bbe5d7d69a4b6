// The Worker entry (docs/architecture.md#edge): the HTTP app, the MCP session Durable Object and the RPC entrypoint.
import type { Hono } from 'hono';
import { EdgeConfigError, readEdgeConfig } from './gateway/edge-config.ts';
import { createGatewayRouter } from './gateway/gateway-router.ts';
import { createMcpGateway } from './gateway/mcp-gateway.ts';
import { createApp } from './http/app.ts';
import { isolateCacheBytes, isolateEngine } from './http/isolate-engine.ts';
import { durableSessionStore } from './state/mcp-session.ts';
import { createToolCache } from './state/tool-cache.ts';

export { SchemavalRpc } from './http/schemaval-rpc.ts';
export { McpSession } from './state/mcp-session.ts';

type EdgeEnv = { Bindings: Env };

/** Built on the first request, once per isolate: `env` is not available at module scope. */
let app: Hono<EdgeEnv> | undefined;
/**
 * Tool verdicts seen by this isolate, per credential scope and session: most calls need no Durable Object. One cache
 * for every upstream's gateway, so the isolate's bound holds however many upstreams are in use.
 */
const toolCache = createToolCache({ maxBytes: isolateCacheBytes.toolCache });

function appFor(env: Env): Hono<EdgeEnv> {
  const config = readEdgeConfig(env);
  // Without REQUEST_STATE_SECRET one random key per isolate, shared by every upstream's gateway (dev only).
  const requestStateSecret = config.requestStateSecret ?? randomSecret();
  // Likewise for the sealed Mcp-Session-Ids: without SESSION_SECRET no session outlives this isolate.
  const sessionSecret = config.sessionSecret ?? randomSecret();
  const gatewayFor = (upstreamUrl: string) =>
    createMcpGateway({
      engine: isolateEngine,
      upstreamUrl,
      outputPolicy: config.outputPolicy,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      upstreamMaxBytes: config.upstreamMaxBytes,
      requestStateSecret,
      sessionSecret,
      // One Durable Object per state key (credential scope and a verified Mcp-Session-Id): pending elicitations, and
      // the tool verdicts as a fallback for isolates that have not seen the list, hold whichever isolate serves.
      sessions: (key) => durableSessionStore(env.SESSIONS.get(env.SESSIONS.idFromName(key))),
      toolCache,
      onEvent: (event) => console.log(`mcp gateway: ${event.kind}${event.tool ? ` ${event.tool}` : ''}: ${event.code}`),
    });
  // /mcp exists once some upstream is configured: the default, the allow-list, or both.
  const gateway =
    config.upstreamMcpUrl === null && config.allowedUpstreams.length === 0
      ? undefined
      : createGatewayRouter({ defaultUpstream: config.upstreamMcpUrl, allowed: config.allowedUpstreams, gatewayFor });
  return createApp<EdgeEnv>({
    engine: isolateEngine,
    corsOrigins: config.corsOrigins,
    ...(gateway === undefined ? {} : { mcp: (c) => gateway(c.req.raw, (work) => c.executionCtx.waitUntil(work)) }),
  });
}

function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export default {
  fetch(request, env, ctx) {
    try {
      app ??= appFor(env);
    } catch (error) {
      if (!(error instanceof EdgeConfigError)) throw error;
      // Not cached: every request says what is wrong until the configuration is fixed.
      console.error(error.message);
      return Response.json({ error: { code: 'misconfigured', message: error.message } }, { status: 500 });
    }
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
