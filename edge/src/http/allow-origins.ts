import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * CORS for the configured origins only (`*` allows any). Every other origin gets no `Access-Control-*` header at
 * all — not even a preflight answer — because hono's `cors` answers every preflight and always sets expose-headers.
 */
export function allowOrigins(origins: readonly string[]): MiddlewareHandler {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  const withCors = cors({
    origin: (origin) => origin,
    allowMethods: ['GET', 'POST', 'DELETE'],
    // The MCP Streamable HTTP headers and a bearer credential, so a page can use /mcp as well as the JSON API.
    allowHeaders: ['Content-Type', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id'],
    maxAge: 600,
  });
  return async function allowOrigins(c, next) {
    const origin = c.req.header('origin');
    if (origin !== undefined && (anyOrigin || allowed.has(origin))) return withCors(c, next);
    await next();
    // The answer depends on Origin, so a shared cache must not hand this one to an allowed origin.
    c.header('Vary', 'Origin', { append: true });
  };
}
