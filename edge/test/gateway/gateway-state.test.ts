// Per-credential gateway state and the isolate's tool cache (issue #10 items 3 and 5; issue #17 item 3 (c), (d), (f)),
// in process: real SDK Clients with different Authorization headers → the gateway (memory session stores) → a real
// SDK Server whose tools depend on the credential.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { createEngine } from '../../../src/engine/index.ts';
import { createUpstream } from '../../../test/helpers/http-upstream.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { protocolVersionMeta, requestRevision } from '../../src/gateway/protocol-revision.ts';
import { credentialScope, stateKey } from '../../src/state/credential-scope.ts';
import { createSessionSealer } from '../../src/state/sealed-session.ts';
import { createMemorySessionStores, type SessionStores, type StoredTool, unpackTool } from '../../src/state/session-store.ts';
import type { ListHints } from '../../src/state/state-types.ts';
import { createToolCache, listHints, type ToolCache } from '../../src/state/tool-cache.ts';
import { toolRows } from '../../src/state/tool-rows.ts';
import { connectToGateway } from '../helpers/gateway-client.ts';

const upstreamUrl = 'http://bank.test/mcp';
const alice = 'Bearer alice-token';
const mallory = 'Bearer mallory-token';

/** Alice may transfer at most 100; Mallory's own list (her "per-user schema") has no limit. */
const toolsFor = (authorization: string): Tool[] => [
  {
    name: 'transfer',
    inputSchema: {
      type: 'object',
      properties: { amount: authorization === alice ? { type: 'integer', maximum: 100 } : { type: 'integer' } },
      required: ['amount'],
    },
  },
];

interface Seen {
  lists: string[];
  calls: { authorization: string; arguments: unknown }[];
  /** The tool of each call, in order. */
  called: string[];
}

/**
 * A stateless upstream (no Mcp-Session-Id): a fresh SDK Server per request, as the SDK's stateless mode wants. Its
 * hints and tools may depend on the credential, and `list` may be changed between requests (a dropped tool).
 */
function credentialUpstream(
  hints: ListHints | ((authorization: string) => ListHints) = {},
  json = true,
  list: (authorization: string) => Tool[] = toolsFor,
) {
  const seen: Seen = { lists: [], calls: [], called: [] };
  const upstream = { seen, list, handle };
  async function handle(request: Request): Promise<Response> {
    const authorization = request.headers.get('authorization') ?? '';
    const server = new Server({ name: 'bank', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      seen.lists.push(authorization);
      return { tools: upstream.list(authorization), ...(typeof hints === 'function' ? hints(authorization) : hints) };
    });
    server.setRequestHandler(CallToolRequestSchema, (call) => {
      seen.calls.push({ authorization, arguments: call.params.arguments });
      seen.called.push(call.params.name);
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    await server.connect(transport);
    return transport.handleRequest(request);
  }
  return upstream;
}

/** Memory stores that count every call made to them, by method. */
function countingStores(inner: SessionStores = createMemorySessionStores()) {
  const counts = { getTool: 0, putTools: 0, keys: [] as string[] };
  const stores: SessionStores = (key) => {
    counts.keys.push(key);
    const store = inner(key);
    return {
      ...store,
      getTool: (name) => {
        counts.getTool++;
        return store.getTool(name);
      },
      putTools: (tools, page) => {
        counts.putTools++;
        return store.putTools(tools, page);
      },
    };
  };
  return { stores, counts };
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function gatewayFor(
  handle: (request: Request) => Promise<Response>,
  sessions: SessionStores,
  toolCache: ToolCache,
  sessionSecret?: string,
) {
  return createMcpGateway({
    engine: createEngine(),
    upstreamUrl,
    sessions,
    toolCache,
    outputPolicy: 'enforce',
    ...(sessionSecret === undefined ? {} : { sessionSecret }),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))) as typeof fetch,
  });
}

async function connect(gateway: (request: Request) => Promise<Response>, authorization: string): Promise<Client> {
  const client = await connectToGateway(gateway, authorization);
  clients.push(client);
  return client;
}

const transfer = (client: Client, amount: number) => client.callTool({ name: 'transfer', arguments: { amount } });
const refusal = (promise: Promise<unknown>): Promise<McpError> =>
  promise.then(
    () => assert.fail('expected the gateway to refuse the call'),
    (error: McpError) => error,
  );
const maxOf = (tools: readonly Tool[]) =>
  (tools[0]?.inputSchema.properties as { amount: { maximum?: number } } | undefined)?.amount.maximum;

describe('gateway state per credential', () => {
  for (const json of [true, false]) {
    it(`keeps Alice's checks when Mallory lists her own looser tools on the same stateless upstream (${json ? 'JSON' : 'SSE'})`, async () => {
      const upstream = credentialUpstream({}, json);
      const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
      const aliceClient = await connect(gateway, alice);
      const malloryClient = await connect(gateway, mallory);

      assert.equal(maxOf((await aliceClient.listTools()).tools), 100);
      assert.equal(maxOf((await malloryClient.listTools()).tools), undefined);

      const error = await refusal(transfer(aliceClient, 1000));
      assert.equal(error.code, -32602);
      assert.equal((error.data as { code: string }).code, 'invalid_arguments');
      await transfer(malloryClient, 1000);
      await transfer(aliceClient, 50);
      assert.deepEqual(
        upstream.seen.calls.map((call) => [call.authorization, call.arguments]),
        [
          [mallory, { amount: 1000 }],
          [alice, { amount: 50 }],
        ],
      );
    });
  }

  it("checks a credential's first call against its own list, fetched with its own Authorization", async () => {
    const upstream = credentialUpstream();
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
    const malloryClient = await connect(gateway, mallory);
    await malloryClient.listTools();
    const aliceClient = await connect(gateway, alice);

    const error = await refusal(transfer(aliceClient, 1000));
    assert.equal((error.data as { code: string }).code, 'invalid_arguments');
    assert.deepEqual(upstream.seen.lists, [mallory, alice]);
    assert.equal(upstream.seen.calls.length, 0);
  });

  it("refuses Alice's session id under Mallory's credential with 404, before any store: never the session's state", async () => {
    const upstream = createUpstream();
    const { stores, counts } = countingStores();
    const gateway = gatewayFor(upstream.handle, stores, createToolCache());
    try {
      const aliceClient = await connect(gateway, alice);
      await aliceClient.listTools();
      const sessionId = (aliceClient.transport as StreamableHTTPClientTransport).sessionId ?? '';
      assert.notEqual(sessionId, '');
      const listsBefore = upstream.seen.lists;
      const keysBefore = counts.keys.length;

      const forged = await gateway(
        new Request('http://gateway.test/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: mallory,
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
        }),
      );
      assert.equal(forged.status, 404);
      assert.equal(((await forged.json()) as { error?: { data?: { code?: string } } }).error?.data?.code, 'unknown_session');
      // The id is sealed to Alice's credential scope: under Mallory's it names no state key at all.
      assert.equal(counts.keys.length, keysBefore);
      assert.ok(
        counts.keys.every((key) => !key.includes('token')),
        'a state key never holds the credential',
      );
      assert.equal(upstream.seen.lists, listsBefore);
      assert.deepEqual(upstream.seen.calls, []);
    } finally {
      await upstream.close();
    }
  });
});

describe('isolate tool cache', () => {
  it('answers a cached tools/call without a store call; another isolate falls back to the store once', async () => {
    const upstream = credentialUpstream();
    const { stores, counts } = countingStores();
    const gateway = gatewayFor(upstream.handle, stores, createToolCache());
    const aliceClient = await connect(gateway, alice);
    await aliceClient.listTools();
    assert.equal(counts.putTools, 1);
    for (const amount of [1, 2, 3]) await transfer(aliceClient, amount);
    await refusal(transfer(aliceClient, 101));
    assert.equal(counts.getTool, 0);

    // A second isolate: same Durable Objects, an empty cache. One store read, then the isolate knows the tool.
    const other = gatewayFor(upstream.handle, stores, createToolCache());
    const aliceElsewhere = await connect(other, alice);
    await transfer(aliceElsewhere, 4);
    await refusal(transfer(aliceElsewhere, 101));
    assert.equal(counts.getTool, 1);
    assert.equal(upstream.seen.lists.length, 1);
    assert.equal(upstream.seen.calls.length, 4);
  });

  for (const hints of [{ ttlMs: 60_000, cacheScope: 'public' }, { ttlMs: 60_000, cacheScope: 'private' }, {}] as const) {
    it(`never shares a list across credentials when cacheScope is ${hints.cacheScope ?? 'absent'}`, async () => {
      const upstream = credentialUpstream(hints);
      const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
      const aliceClient = await connect(gateway, alice);
      await aliceClient.listTools();
      const malloryClient = await connect(gateway, mallory);
      await transfer(malloryClient, 1000);
      assert.deepEqual(upstream.seen.lists, [alice, mallory]);
      assert.deepEqual(upstream.seen.calls, [{ authorization: mallory, arguments: { amount: 1000 } }]);
    });
  }

  it('lists again once ttlMs has passed (injected clock), in the isolate and in the store', async () => {
    let clock = 1_000_000;
    const upstream = credentialUpstream({ ttlMs: 60_000, cacheScope: 'private' });
    const { stores, counts } = countingStores();
    const gateway = gatewayFor(upstream.handle, stores, createToolCache({ now: () => clock }));
    const aliceClient = await connect(gateway, alice);
    await aliceClient.listTools();
    clock += 59_000;
    await transfer(aliceClient, 1);
    assert.equal(upstream.seen.lists.length, 1);
    assert.equal(counts.getTool, 0);

    clock += 2_000;
    await transfer(aliceClient, 2);
    // Stale in the isolate, stale in the store: the gateway fetched a fresh list before it checked the call.
    assert.equal(upstream.seen.lists.length, 2);
    assert.ok(counts.getTool >= 1);
    assert.equal(upstream.seen.calls.length, 2);
  });

  it('uses a five-minute freshness when the list names no ttlMs', async () => {
    let clock = 0;
    const upstream = credentialUpstream();
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache({ now: () => clock }));
    const aliceClient = await connect(gateway, alice);
    await aliceClient.listTools();
    clock += 4 * 60_000;
    await transfer(aliceClient, 1);
    assert.equal(upstream.seen.lists.length, 1);
    clock += 2 * 60_000;
    await transfer(aliceClient, 1);
    assert.equal(upstream.seen.lists.length, 2);
  });
});

/** Mallory's list is lax, marked public, and has a tool Alice's lacks; Alice's is strict and private. */
const laxPublic = (authorization: string): ListHints =>
  authorization === mallory ? { ttlMs: 60 * 60_000, cacheScope: 'public' } : { ttlMs: 60_000, cacheScope: 'private' };
const withAdmin = (authorization: string): Tool[] => [
  ...toolsFor(authorization),
  ...(authorization === mallory ? [{ name: 'admin', inputSchema: { type: 'object' as const } }] : []),
];
const codeOf = (error: McpError) => (error.data as { code?: string } | undefined)?.code;

describe('cacheScope "public" never decides another credential\'s calls', () => {
  it("checks a credential that never listed against its own list, not another's lax public one", async () => {
    const upstream = credentialUpstream(laxPublic, true, withAdmin);
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
    await (await connect(gateway, mallory)).listTools();
    const aliceClient = await connect(gateway, alice);
    assert.equal(codeOf(await refusal(transfer(aliceClient, 1000))), 'invalid_arguments');
    assert.deepEqual(upstream.seen.lists, [mallory, alice]);
    assert.equal(upstream.seen.calls.length, 0);
  });

  it('lists again once its own strict list expires, though a public lax list is still fresh', async () => {
    let clock = 1_000_000;
    const upstream = credentialUpstream(laxPublic, true, withAdmin);
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache({ now: () => clock }));
    const aliceClient = await connect(gateway, alice);
    await aliceClient.listTools();
    clock += 1000;
    await (await connect(gateway, mallory)).listTools();
    clock += 60_000;
    assert.equal(codeOf(await refusal(transfer(aliceClient, 1000))), 'invalid_arguments');
    assert.deepEqual(upstream.seen.lists, [alice, mallory, alice]);
    assert.equal(upstream.seen.calls.length, 0);
  });

  it("refuses a tool that only another credential's public list names, listed or not", async () => {
    const upstream = credentialUpstream(laxPublic, true, withAdmin);
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
    const malloryClient = await connect(gateway, mallory);
    await malloryClient.listTools();
    await malloryClient.callTool({ name: 'admin', arguments: {} });
    const aliceClient = await connect(gateway, alice);
    assert.equal(codeOf(await refusal(aliceClient.callTool({ name: 'admin', arguments: {} }))), 'unknown_tool');
    await aliceClient.listTools();
    assert.equal(codeOf(await refusal(aliceClient.callTool({ name: 'admin', arguments: {} }))), 'unknown_tool');
    assert.deepEqual(upstream.seen.called, ['admin']);
    assert.deepEqual(
      upstream.seen.lists.filter((who) => who === alice),
      [alice, alice, alice],
      'each refusal of an unknown tool lists again under her own credential',
    );
  });
});

describe('a newer tools/list replaces what a state key may call', () => {
  const legacy: Tool = { name: 'legacy', inputSchema: { type: 'object' } };

  for (const hints of [{}, { ttlMs: 60 * 60_000, cacheScope: 'public' }] as const) {
    it(`refuses a tool the upstream dropped right after the client lists again (cacheScope ${hints.cacheScope ?? 'absent'})`, async () => {
      const upstream = credentialUpstream(hints, true, (who) => [...toolsFor(who), legacy]);
      const { stores, counts } = countingStores();
      const gateway = gatewayFor(upstream.handle, stores, createToolCache());
      const aliceClient = await connect(gateway, alice);
      await aliceClient.listTools();
      await aliceClient.callTool({ name: 'legacy', arguments: {} });

      upstream.list = toolsFor;
      assert.deepEqual(
        (await aliceClient.listTools()).tools.map((tool) => tool.name),
        ['transfer'],
      );
      assert.equal(codeOf(await refusal(aliceClient.callTool({ name: 'legacy', arguments: {} }))), 'unknown_tool');
      assert.deepEqual(upstream.seen.called, ['legacy']);
      // The store (the Durable Object's stand-in) was replaced too, so no other isolate finds it either.
      const key = counts.keys.at(-1) ?? '';
      assert.equal(await stores(key).getTool('legacy'), undefined);
      const elsewhere = await connect(gatewayFor(upstream.handle, stores, createToolCache()), alice);
      assert.equal(codeOf(await refusal(elsewhere.callTool({ name: 'legacy', arguments: {} }))), 'unknown_tool');
      assert.deepEqual(upstream.seen.called, ['legacy']);
    });
  }

  it("refuses a dropped tool after the gateway's own re-list (a call to a tool it has not seen)", async () => {
    const upstream = credentialUpstream({}, true, (who) => [...toolsFor(who), legacy]);
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
    const aliceClient = await connect(gateway, alice);
    await aliceClient.listTools();
    upstream.list = (who) => [...toolsFor(who), { name: 'fresh', inputSchema: { type: 'object' } }];
    // 'fresh' is unknown, so the gateway lists again; that list replaces the old one and 'legacy' goes with it.
    await aliceClient.callTool({ name: 'fresh', arguments: {} });
    assert.equal(codeOf(await refusal(aliceClient.callTool({ name: 'legacy', arguments: {} }))), 'unknown_tool');
    assert.deepEqual(upstream.seen.called, ['fresh']);
  });

  it('lists again over a stored tool of an older record format, never trusting it', async () => {
    const upstream = credentialUpstream();
    // What an older gateway kept for Alice's 'transfer': accepted, with a looser schema than her list now has.
    const loose = { name: 'transfer', inputSchema: { type: 'object' } };
    const [compiled] = await createEngine().compileTools([loose]);
    const old = JSON.stringify({
      definition: JSON.stringify(loose),
      hasOutputSchema: false,
      verdict: { fingerprint: compiled?.fingerprint, verdict: 'accepted', input: { ok: true }, output: null, warnings: [] },
    });
    const inner = createMemorySessionStores();
    let listed = false;
    const stores: SessionStores = (key) => {
      const store = inner(key);
      return {
        ...store,
        // The Durable Object's rows until a list replaces them, read as McpSession reads them.
        getTool: async (name) => (listed ? store.getTool(name) : unpackTool(name, old)),
        putTools: (tools, page) => {
          listed = true;
          return store.putTools(tools, page);
        },
      };
    };
    const aliceClient = await connect(gatewayFor(upstream.handle, stores, createToolCache()), alice);
    assert.equal(codeOf(await refusal(transfer(aliceClient, 1000))), 'invalid_arguments');
    assert.deepEqual(upstream.seen.lists, [alice]);
    assert.deepEqual(upstream.seen.calls, []);
  });

  it('adds a later page to the list its first page started', () => {
    const cache = createToolCache();
    const key = { upstream: upstreamUrl, stateKey: 's:stateless' };
    cache.remember(key, [storedTool('a')], { first: true });
    cache.remember(key, [storedTool('b')], { first: false });
    assert.ok(cache.own(key, 'a') && cache.own(key, 'b'));
    cache.remember(key, [storedTool('b')], { first: true });
    assert.equal(cache.own(key, 'a'), undefined);
    assert.ok(cache.own(key, 'b'));
    cache.remember(key, [], { first: true });
    assert.equal(cache.own(key, 'b'), undefined);
    assert.deepEqual(cache.stats(), { tools: 0, lists: 0, bytes: 0, evictions: 0 });
  });
});

describe('McpSession (the Durable Object) in workerd', () => {
  let mf: Miniflare;
  /** Calls one method of the state key's Durable Object over Workers RPC. */
  const call = async (key: string, method: string, ...args: unknown[]): Promise<unknown> => {
    const response = await mf.dispatchFetch('http://do.test/', { method: 'POST', body: JSON.stringify({ key, method, args }) });
    return ((await response.json()) as { result: unknown }).result;
  };

  before(async () => {
    const bundle = await build({
      stdin: {
        // The Durable Object, and a way to write a row as an older version of it did (`writeRow`).
        contents: `import { McpSession as Session } from './state/mcp-session.ts';
export class McpSession extends Session {
  writeRow(name, record) {
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS tool_records (name TEXT PRIMARY KEY, record TEXT NOT NULL, bytes INTEGER NOT NULL)');
    sql.exec('INSERT OR REPLACE INTO tool_records (name, record, bytes) VALUES (?, ?, ?)', name, record, record.length);
  }
}
export default {
  async fetch(request, env) {
    const { key, method, args } = await request.json();
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(key));
    return Response.json({ result: (await stub[method](...args)) ?? null });
  },
};`,
        resolveDir: fileURLToPath(new URL('../../src', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      target: 'es2022',
      platform: 'neutral',
      external: ['cloudflare:*'],
      write: false,
      logLevel: 'silent',
    });
    mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]?.text ?? '',
      compatibilityDate: '2026-04-20',
      durableObjects: { SESSIONS: { className: 'McpSession', useSQLite: true } },
    });
    await mf.ready;
  });
  after(async () => {
    await mf?.dispose();
  });

  it('replaces its tools on a first page, adds a later page, and keeps keys apart', async () => {
    const names = async (key: string) => {
      const found: string[] = [];
      for (const name of ['a', 'b', 'c']) if ((await call(key, 'getTool', name)) !== null) found.push(name);
      return found;
    };
    await call('k1', 'putTools', [storedTool('a'), storedTool('b')], { first: true });
    await call('k1', 'putTools', [storedTool('c')], { first: false });
    assert.deepEqual(await names('k1'), ['a', 'b', 'c']);
    assert.deepEqual(await call('k1', 'getTool', 'a'), storedTool('a'));
    await call('k1', 'putTools', [storedTool('b')], { first: true });
    assert.deepEqual(await names('k1'), ['b']);
    assert.deepEqual(await names('k2'), []);
    // clear() drops every table; the next page makes the tools table again.
    await call('k1', 'clear');
    assert.deepEqual(await names('k1'), []);
    await call('k1', 'putTools', [storedTool('a')], { first: false });
    assert.deepEqual(await names('k1'), ['a']);
  });

  it('takes rows written in the calling isolate (toolRows), in batches and one by one alike', async () => {
    const tools = [storedTool('a'), storedTool('b'), storedTool('c')];
    // A batch limit smaller than any row: every row goes in alone, as a record longer than a batch would.
    const single = toolRows(tools.slice(0, 2), 10);
    assert.equal(single.batches.length, 0);
    assert.equal(single.large.length, 2);
    await call('k4', 'putToolRows', single, true);
    await call('k4', 'putToolRows', toolRows(tools.slice(2)), false);
    for (const tool of tools) assert.deepEqual(await call('k4', 'getTool', tool.name), tool);
    await call('k4', 'putToolRows', toolRows([storedTool('c')]), true);
    assert.equal(await call('k4', 'getTool', 'a'), null);
    assert.deepEqual(await call('k4', 'getTool', 'c'), storedTool('c'));
  });

  it('reads a row of an older record format as missing, so the gateway lists again instead of trusting it', async () => {
    // As rows were written before verdicts were told apart by `status`: an accepted tool and a refused one.
    const old = (verdict: Record<string, unknown>) =>
      JSON.stringify({ definition: '{}', hasOutputSchema: false, verdict: { fingerprint: '', output: null, warnings: [], ...verdict } });
    await call('k3', 'writeRow', 'a', old({ verdict: 'accepted', input: { ok: true } }));
    await call('k3', 'writeRow', 'b', old({ verdict: 'refused', input: { ok: false, code: 'remote_ref', message: 'no' } }));
    assert.equal(await call('k3', 'getTool', 'a'), null);
    assert.equal(await call('k3', 'getTool', 'b'), null);
    // A new list replaces them.
    await call('k3', 'putTools', [storedTool('a')], { first: true });
    assert.deepEqual(await call('k3', 'getTool', 'a'), storedTool('a'));
    assert.equal(await call('k3', 'getTool', 'b'), null);
  });
});

/** Posts one raw JSON-RPC message to the gateway with the given headers. */
async function post(gateway: (request: Request) => Promise<Response>, headers: Record<string, string>, message: unknown) {
  const response = await gateway(
    new Request('http://gateway.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: alice, ...headers },
      body: JSON.stringify(message),
    }),
  );
  return { status: response.status, body: (await response.json()) as { id?: unknown; error?: { code: number; data?: { code?: string } } } };
}

const callWith = (meta?: string) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'transfer', arguments: { amount: 1000 }, ...(meta === undefined ? {} : { _meta: { [protocolVersionMeta]: meta } }) },
});

describe('one protocol revision per request', () => {
  const cases = [
    [
      'a 2026-07-28 header with a 2025-11-25 body',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 's-1' },
      callWith('2025-11-25'),
    ],
    [
      'a 2025-11-25 header with a 2026-07-28 body',
      { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's-1' },
      callWith('2026-07-28'),
    ],
    [
      'a 2026-07-28 header with a body that names no revision',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 's-1' },
      callWith(),
    ],
    [
      'a body revision that is not a date',
      { 'mcp-protocol-version': '2026-07-28' },
      { ...callWith(), params: { name: 'transfer', _meta: { [protocolVersionMeta]: 20260728 } } },
    ],
  ] as const;
  for (const [what, headers, message] of cases) {
    it(`refuses ${what} with 400 protocol_version_mismatch, and sends nothing`, async () => {
      const upstream = credentialUpstream();
      const { stores, counts } = countingStores();
      const gateway = gatewayFor(upstream.handle, stores, createToolCache());
      const { status, body } = await post(gateway, headers, message);
      assert.equal(status, 400);
      assert.equal(body.id, 7);
      assert.equal(body.error?.code, -32020);
      assert.equal(body.error?.data?.code, 'protocol_version_mismatch');
      assert.deepEqual([upstream.seen.lists, upstream.seen.calls, counts.keys], [[], [], []]);
    });
  }

  it('refuses a posted response (a session-era answer) under a 2026-07-28 header, with id null', async () => {
    const upstream = credentialUpstream();
    const gateway = gatewayFor(upstream.handle, createMemorySessionStores(), createToolCache());
    const answer = { jsonrpc: '2.0', id: 'elicit-1', result: { action: 'accept', content: { name: 'x' } } };
    const { status, body } = await post(gateway, { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 's-1' }, answer);
    assert.equal(status, 400);
    assert.equal(body.id, null);
    assert.equal(body.error?.data?.code, 'protocol_version_mismatch');
  });

  it('keys a 2026-07-28 request by its credential alone, with or without the header, whatever Mcp-Session-Id it sends', async () => {
    const upstream = credentialUpstream();
    const { stores, counts } = countingStores();
    const gateway = gatewayFor(upstream.handle, stores, createToolCache());
    const stateless = stateKey(await credentialScope(upstreamUrl, alice), null);
    const variants: Record<string, string>[] = [
      { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 's-1' },
      { 'mcp-session-id': 's-2' },
    ];
    for (const headers of variants) {
      const { body } = await post(gateway, headers, callWith('2026-07-28'));
      assert.notEqual(body.error?.data?.code, 'protocol_version_mismatch');
    }
    assert.deepEqual([...new Set(counts.keys)], [stateless]);
  });

  it("keys a 2025-11-25 request by its session (the upstream's own id, unsealed) when header and body agree", async () => {
    const upstream = credentialUpstream();
    const { stores, counts } = countingStores();
    const secret = 'gateway-state-test-secret-of-32-chars';
    const gateway = gatewayFor(upstream.handle, stores, createToolCache(), secret);
    const scope = await credentialScope(upstreamUrl, alice);
    const sealed = (await createSessionSealer(secret).seal('s-1', scope)) ?? '';
    await post(gateway, { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sealed }, callWith('2025-11-25'));
    assert.deepEqual(counts.keys, [stateKey(scope, 's-1')]);
  });

  it('decides from the body, the header alone only for a notification without a claim', () => {
    const headers = (version?: string) => new Headers(version === undefined ? {} : { 'mcp-protocol-version': version });
    const revision = (h: Headers, m: unknown) => {
      const decided = requestRevision(h, m);
      return decided.ok ? decided.revision : decided.code;
    };
    assert.equal(revision(headers(), callWith('2026-07-28')), '2026-07-28');
    assert.equal(revision(headers(' 2026-07-28 '), callWith('2026-07-28')), '2026-07-28');
    assert.equal(revision(headers('2099-01-01'), callWith('2099-01-01')), '2026-07-28');
    assert.equal(revision(headers('2025-11-25'), callWith()), '2025-11-25');
    assert.equal(revision(headers(), callWith()), '2025-11-25');
    assert.equal(revision(headers('2026-07-28'), { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }), '2026-07-28');
    assert.equal(revision(headers('2026-07-28'), callWith('2099-01-01')), 'protocol_version_mismatch');
    assert.equal(revision(headers('garbage'), callWith('2026-07-28')), 'protocol_version_mismatch');
  });
});

describe('createToolCache', () => {
  it('holds at most maxTools, evicting the least recently used tools', () => {
    const cache = createToolCache({ maxTools: 4 });
    const key = (n: number) => ({ upstream: upstreamUrl, stateKey: `scope:${n}` });
    cache.remember(key(1), [storedTool('a'), storedTool('b')], { first: true });
    cache.remember(key(2), [storedTool('a'), storedTool('b')], { first: true });
    assert.ok(cache.own(key(1), 'a'));
    cache.remember(key(3), [storedTool('a'), storedTool('b')], { first: true });
    assert.equal(cache.size(), 4);
    assert.equal(cache.own(key(2), 'a'), undefined);
    assert.equal(cache.own(key(1), 'b'), undefined);
    assert.ok(cache.own(key(1), 'a'));
    assert.ok(cache.own(key(3), 'b'));
    assert.equal(cache.stats().evictions, 2);
  });

  it('reads ttlMs and cacheScope only when they have the right type, and treats ttlMs 0 as just long enough', () => {
    let clock = 0;
    const cache = createToolCache({ now: () => clock });
    const key = { upstream: upstreamUrl, stateKey: 's:stateless' };
    const [stamped] = cache.remember(key, [storedTool('a')], { ttlMs: 0, first: true });
    assert.equal(stamped?.expiresAt, 1000);
    assert.ok(cache.own(key, 'a'));
    clock = 1000;
    assert.equal(cache.own(key, 'a'), undefined);
    assert.equal(cache.size(), 0);
    assert.deepEqual(listHints({ ttlMs: -1, cacheScope: 'PUBLIC' }), {});
    assert.deepEqual(listHints({ ttlMs: '60', cacheScope: 'public' }), { cacheScope: 'public' });
    assert.deepEqual(listHints({ ttlMs: 60, cacheScope: 'private' }), { ttlMs: 60, cacheScope: 'private' });
  });
});

function storedTool(name: string): StoredTool {
  return {
    name,
    verdict: { name, fingerprint: name, status: 'accepted', input: { status: 'accepted' }, output: null, warnings: [] },
    definition: '{}',
    hasOutputSchema: false,
  };
}
