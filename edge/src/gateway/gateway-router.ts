import { createLruCache } from '../../../src/engine/core/index.ts';
import { drainBody } from '../http/read-limited-text.ts';
import { gatewayError } from '../rpc/gateway-error.ts';
import type { Later } from '../state/cached-session-store.ts';
import { type AllowedUpstream, chooseUpstream } from '../upstream/upstream-allow-list.ts';

/**
 * One gateway in front of one upstream (`createMcpGateway`); `later` runs work after the response (workerd's
 * `ctx.waitUntil`): the Durable Object writes of a tool list.
 */
export type Gateway = (request: Request, later?: Later) => Promise<Response>;

export interface GatewayRouterOptions {
  /** `UPSTREAM_MCP_URL`: the upstream of a request that names none; null when there is no default. */
  readonly defaultUpstream: string | null;
  /** `ALLOWED_UPSTREAMS`: what else a request may name with `/mcp?upstream=URL`. */
  readonly allowed: readonly AllowedUpstream[];
  /** Builds the gateway of one allowed upstream; its state, caches and credential scope are that upstream's. */
  readonly gatewayFor: (upstreamUrl: string) => Gateway;
  /** Most gateways kept built (least recently used go first; default 32). Their state lives outside them. */
  readonly maxGateways?: number;
}

/**
 * `/mcp` for several upstreams: each request goes to the gateway of the upstream it names (or the default), once
 * the allow-list admits it; a refused request gets 403 `upstream_not_allowed` and nothing is fetched. Each upstream
 * has its own gateway, so everything keyed by the upstream (credential scope, tool verdicts, sessions, MRTR
 * envelopes) is keyed by the one this request reaches.
 */
export function createGatewayRouter(options: GatewayRouterOptions): Gateway {
  const maxGateways = options.maxGateways ?? 32;
  const built = createLruCache<string, Gateway>(maxGateways);

  const gatewayOf = (url: string): Gateway => {
    let gateway = built.get(url);
    if (gateway === undefined) {
      gateway = options.gatewayFor(url);
      built.set(url, gateway);
    }
    return gateway;
  };

  return async function routeToUpstream(request: Request, later?: Later): Promise<Response> {
    const choice = chooseUpstream(new URL(request.url), options.defaultUpstream, options.allowed);
    if (!choice.ok) {
      // Drained (bounded), never parsed or sent on: a cancelled upload costs the next request its connection.
      await drainBody(request);
      const status = choice.code === 'upstream_not_allowed' ? 403 : 400;
      const body = JSON.stringify(gatewayError(null, choice.code, choice.message));
      return new Response(body, { status, headers: { 'content-type': 'application/json' } });
    }
    return gatewayOf(choice.url)(request, later);
  };
}
