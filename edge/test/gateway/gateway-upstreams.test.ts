// /mcp?upstream=URL through the gateway router, over real sockets on 127.0.0.1: an allowed upstream is reached and
// keeps its own state; anything else is refused before a byte is sent; a redirect is never followed.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type ServedHandler, serveFetchHandler } from '../../../examples/serve-fetch-handler.ts';
import { createEngine } from '../../../src/engine/index.ts';
import { createUpstream, type Upstream } from '../../../test/helpers/http-upstream.ts';
import { createGatewayRouter } from '../../src/gateway/gateway-router.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { credentialScope } from '../../src/state/credential-scope.ts';
import { createMemorySessionStores } from '../../src/state/session-store.ts';
import { createToolCache } from '../../src/state/tool-cache.ts';
import { type AllowedUpstream, allowedUpstream } from '../../src/upstream/upstream-allow-list.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const onlyB: Tool[] = [
  { name: 'only_b', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(\\w+)\\s\\1$' } } } },
  { name: 'echo_b', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];

async function serve(upstream: Upstream): Promise<string> {
  const url = await upstream.listen();
  cleanup.push(() => upstream.close());
  return url;
}

/** The router as index.ts builds it, with real fetch; records every URL fetched and every state key used. */
function router(defaultUpstream: string | null, allowed: readonly string[]) {
  const fetched: string[] = [];
  const keys: string[] = [];
  const sessions = createMemorySessionStores();
  const toolCache = createToolCache();
  const engine = createEngine();
  const route = createGatewayRouter({
    defaultUpstream,
    allowed: allowed.map((entry) => allowedUpstream(entry) as AllowedUpstream),
    gatewayFor: (upstreamUrl) =>
      createMcpGateway({
        engine,
        upstreamUrl,
        outputPolicy: 'warn',
        toolCache,
        sessions: (key) => {
          keys.push(key);
          return sessions(key);
        },
        fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
          fetched.push(String(input instanceof Request ? input.url : input));
          return fetch(input, init);
        }) as typeof fetch,
      }),
  });
  return { route, fetched, keys };
}

async function connect(route: (request: Request) => Promise<Response>, gatewayUrl: string): Promise<Client> {
  const client = new Client({ name: 'host', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(gatewayUrl), {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => route(new Request(input, init))) as typeof fetch,
  });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

const withUpstream = (url: string) => `http://gateway.test/mcp?upstream=${encodeURIComponent(url)}`;

describe('gateway router: /mcp?upstream=URL', () => {
  it('reaches the default without a parameter and an allowed upstream with one, each with its own tools and state', async () => {
    const a = createUpstream();
    const b = createUpstream({ list: onlyB });
    const [aUrl, bUrl] = [await serve(a), await serve(b)];
    const { route, fetched, keys } = router(aUrl, [new URL(bUrl).origin]);

    const toA = await connect(route, 'http://gateway.test/mcp');
    const toB = await connect(route, withUpstream(bUrl));
    assert.deepEqual(
      (await toA.listTools()).tools.map((tool) => tool.name),
      ['echo', 'weather', 'ask'],
    );
    const listedB = await toB.listTools();
    assert.deepEqual(
      listedB.tools.map((tool) => tool.name),
      ['echo_b'],
    );
    const refused = listedB._meta?.['io.schemaval/refused'] as { name: string; code: string; message: string }[];
    assert.deepEqual(
      refused.map((tool) => [tool.name, tool.code]),
      [['only_b', 'invalid_pattern']],
    );
    assert.match(refused[0]?.message ?? '', /^inputSchema: #\/properties\/q\/pattern: .*backreference/);

    // A's tool is unknown on B: B's calls are checked against B's list only, and reach B only.
    const unknown = await toB.callTool({ name: 'echo', arguments: { text: 'hi' } }).then(
      () => assert.fail('expected an error'),
      (error: McpError) => error,
    );
    assert.equal((unknown.data as { code?: string }).code, 'unknown_tool');
    const echoed = await toB.callTool({ name: 'echo_b', arguments: { text: 'hi' } });
    assert.equal((echoed.content as { text: string }[])[0]?.text, 'hi');
    assert.deepEqual(b.seen.calls, [{ name: 'echo_b', arguments: { text: 'hi' } }]);
    assert.deepEqual(a.seen.calls, []);

    assert.ok(fetched.every((url) => url === aUrl || url === bUrl));
    // The credential scope hashes the upstream the request reached.
    const [scopeA, scopeB] = [await credentialScope(aUrl, null), await credentialScope(bUrl, null)];
    assert.notEqual(scopeA, scopeB);
    assert.ok(keys.some((key) => key.startsWith(`${scopeA}:`)));
    assert.ok(keys.some((key) => key.startsWith(`${scopeB}:`)));
    assert.ok(keys.every((key) => key.startsWith(`${scopeA}:`) || key.startsWith(`${scopeB}:`)));
  });

  it('refuses an upstream off the list with 403 upstream_not_allowed and fetches nothing', async () => {
    const a = createUpstream();
    const other = createUpstream({ list: onlyB });
    const [aUrl, otherUrl] = [await serve(a), await serve(other)];
    const { route, fetched } = router(aUrl, ['https://mcp.example']);

    for (const upstream of [otherUrl, 'https://mcp.example.evil.test/mcp', 'https://mcp.example@127.0.0.1/mcp', 'file:///etc/passwd']) {
      const response = await route(
        new Request(withUpstream(upstream), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      );
      assert.equal(response.status, 403, upstream);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string; data: { code: string } } };
      assert.equal(body.error.data.code, 'upstream_not_allowed');
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /allow-list|not an http/);
    }
    await assert.rejects(connect(route, withUpstream(otherUrl)), /403|upstream_not_allowed/);
    assert.deepEqual(fetched, []);
    assert.equal(other.seen.lists, 0);
  });

  it('does not follow a redirect from an allowed upstream to another host', async () => {
    const target = createUpstream({ list: onlyB });
    const targetUrl = await serve(target);
    let hits = 0;
    const redirector: ServedHandler = await serveFetchHandler(async () => {
      hits++;
      return new Response(null, { status: 307, headers: { location: targetUrl } });
    });
    cleanup.push(() => redirector.close());
    const redirectUrl = `${redirector.origin}/mcp`;
    // Both are allowed here: even then the gateway reaches only the URL the request named.
    const { route, fetched } = router(null, [redirectUrl, targetUrl]);

    const error = await connect(route, withUpstream(redirectUrl)).then(
      () => assert.fail('expected an error'),
      (e: McpError) => e,
    );
    assert.equal((error.data as { code?: string } | undefined)?.code, 'upstream_error');
    assert.match(error.message, /redirected \(HTTP 307\)/);
    assert.equal(hits, 1);
    assert.deepEqual(fetched, [redirectUrl]);
    assert.equal(target.seen.lists, 0);
  });

  it('asks for an upstream when none is configured and the request names none', async () => {
    const { route, fetched } = router(null, ['https://mcp.example']);
    const response = await route(new Request('http://gateway.test/mcp', { method: 'POST', body: '{}' }));
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { data: { code: string } } }).error.data.code, 'upstream_not_configured');
    assert.deepEqual(fetched, []);
  });
});
