// Sealed session ids (issue #17: every forged Mcp-Session-Id used to be a Durable Object of its own), in process:
// real SDK Clients → the gateway (memory session stores that count what asks for them) → a real SDK upstream with
// one Server per session, whose own ids the gateway seals towards the client and unseals towards the upstream.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine } from '../../../src/engine/index.ts';
import { createUpstream, type Upstream } from '../../../test/helpers/http-upstream.ts';
import { createListUpstream } from '../../../test/helpers/list-upstream.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { protocolVersionMeta } from '../../src/gateway/protocol-revision.ts';
import { credentialScope } from '../../src/state/credential-scope.ts';
import { createSessionSealer, maxSealedSessionIdLength, maxUpstreamSessionIdLength } from '../../src/state/sealed-session.ts';
import { createMemorySessionStores, type SessionStores } from '../../src/state/session-store.ts';
import { connectToGateway } from '../helpers/gateway-client.ts';

const upstreamUrl = 'http://sessions.test/mcp';
const alice = 'Bearer alice-token';
const mallory = 'Bearer mallory-token';
const secret = 'gateway-sessions-test-secret-32-chars';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Gateway = (request: Request) => Promise<Response>;

/** Memory stores that record every state key asked for, and so every store (a Durable Object in workerd) touched. */
function countingStores() {
  const inner = createMemorySessionStores();
  const keys: string[] = [];
  const stores: SessionStores = (key) => {
    keys.push(key);
    return inner(key);
  };
  return { stores, keys, inner };
}

/** The upstream, recording the Mcp-Session-Id of every request it receives. */
function recording(upstream: Upstream) {
  const received: (string | null)[] = [];
  const handle = (request: Request) => {
    received.push(request.headers.get('mcp-session-id'));
    return upstream.handle(request);
  };
  return { received, handle };
}

function gatewayFor(handle: (request: Request) => Promise<Response>, sessions: SessionStores, sessionSecret?: string): Gateway {
  return createMcpGateway({
    engine: createEngine(),
    upstreamUrl,
    sessions,
    outputPolicy: 'enforce',
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))) as typeof fetch,
    ...(sessionSecret === undefined ? {} : { sessionSecret }),
  });
}

const clients: Client[] = [];
const upstreams: Upstream[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const upstream of upstreams.splice(0)) await upstream.close();
});

async function connect(gateway: Gateway, authorization = alice): Promise<Client> {
  const client = await connectToGateway(gateway, authorization);
  clients.push(client);
  return client;
}

const sessionOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId ?? '';

/** A raw request to the gateway: a 2025-11-25 tools/list by default. */
async function send(
  gateway: Gateway,
  sessionId: string | undefined,
  options: { method?: string; authorization?: string; body?: unknown; version?: string } = {},
) {
  const method = options.method ?? 'POST';
  const response = await gateway(
    new Request('http://gateway.test/mcp', {
      method,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: options.authorization ?? alice,
        'mcp-protocol-version': options.version ?? '2025-11-25',
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
      },
      ...(method === 'POST' ? { body: JSON.stringify(options.body ?? { jsonrpc: '2.0', id: 3, method: 'tools/list' }) } : {}),
    }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
}

/** The gateway, the upstream behind it, and one session Alice opened through a real SDK Client. */
async function aliceInSession(sessionSecret?: string) {
  const upstream = createUpstream({ json: true });
  upstreams.push(upstream);
  const { received, handle } = recording(upstream);
  const { stores, keys, inner } = countingStores();
  const gateway = gatewayFor(handle, stores, sessionSecret);
  const client = await connect(gateway);
  return { upstream, received, gateway, keys, inner, client, sealed: sessionOf(client) };
}

/**
 * The same with Alice's session opened by a raw `initialize` (no SDK Client, so no stream of its own running in the
 * background): what reached the stores and the upstream afterwards is exactly what the test sent.
 */
async function aliceRaw(sessionSecret?: string) {
  const upstream = createUpstream({ json: true });
  upstreams.push(upstream);
  const { received, handle } = recording(upstream);
  const { stores, keys, inner } = countingStores();
  const gateway = gatewayFor(handle, stores, sessionSecret);
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } };
  const opened = await send(gateway, undefined, { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params } });
  const sealed = opened.headers.get('mcp-session-id') ?? '';
  assert.notEqual(sealed, '', `no session id handed out: ${JSON.stringify(opened.body)}`);
  await send(gateway, sealed, { body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  return { upstream, received, gateway, keys, inner, sealed };
}

/** A refusal of the session id: 404, a JSON-RPC error with data.code unknown_session. */
function assertUnknownSession(answer: { status: number; body: Record<string, unknown> }) {
  assert.equal(answer.status, 404);
  const error = answer.body.error as { code?: number; data?: { code?: string } } | undefined;
  assert.equal(error?.code, -32001);
  assert.equal(error?.data?.code, 'unknown_session');
}

describe('sealed session ids through the gateway', () => {
  it('hands out the upstream id sealed, takes it back, and forwards only the upstream’s own id (initialize → tools/list → tools/call → DELETE)', async () => {
    const { upstream, received, client, sealed, keys, inner } = await aliceInSession();
    const [upstreamId, mac] = [sealed.slice(0, sealed.lastIndexOf('.')), sealed.slice(sealed.lastIndexOf('.') + 1)];
    assert.match(upstreamId, uuid, `sealed id ${sealed}`);
    assert.match(mac, /^[0-9a-f]{64}$/);
    assert.match(sealed, /^[\x21-\x7e]+$/, 'visible ASCII only, as the transport requires');

    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'echo'));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(upstream.seen.calls, [{ name: 'echo', arguments: { text: 'hi' } }]);
    // Every request after initialize reached the upstream with its own id, never the sealed form.
    assert.equal(received[0], null);
    assert.ok(received.length >= 3);
    for (const id of received.slice(1)) assert.equal(id, upstreamId);
    assert.ok(keys.length > 0 && keys.every((key) => key.endsWith(`:${upstreamId}`) || key.endsWith(':stateless')));

    // DELETE with the sealed id: forwarded with the upstream's id, and the session's state is dropped.
    assert.ok(inner.stats().sessions > 0);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    assert.equal(received.at(-1), upstreamId);
    assert.equal(inner.stats().bytes, 0);
  });

  it('answers a forged id 404 unknown_session (POST, GET, DELETE) before any store, and sends nothing upstream', async () => {
    const { received, gateway, keys, inner } = await aliceRaw();
    const keysBefore = keys.length;
    const sessionsBefore = inner.stats().sessions;
    const receivedBefore = received.length;
    for (const method of ['POST', 'GET', 'DELETE']) {
      for (const forged of ['forged-1', `forged-2.${'0'.repeat(64)}`, crypto.randomUUID()]) {
        const answer = await send(gateway, forged, { method });
        assertUnknownSession(answer);
        assert.equal(answer.headers.get('mcp-session-id'), null);
      }
    }
    const call = await send(gateway, 'forged-3', {
      body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
    });
    assertUnknownSession(call);
    assert.equal(call.body.id, 9, 'a POSTed request is answered under its own id');
    assert.equal(keys.length, keysBefore, 'no state key was derived');
    assert.equal(inner.stats().sessions, sessionsBefore, 'no session store was made');
    assert.equal(received.length, receivedBefore, 'nothing reached the upstream');
  });

  it('refuses an id sealed for one credential when another presents it', async () => {
    const { gateway, sealed, keys, received } = await aliceRaw();
    const [keysBefore, receivedBefore] = [keys.length, received.length];
    assertUnknownSession(await send(gateway, sealed, { authorization: mallory }));
    assertUnknownSession(await send(gateway, sealed, { authorization: '' }));
    assert.equal(keys.length, keysBefore);
    assert.equal(received.length, receivedBefore);
    // Alice herself still gets in.
    assert.equal((await send(gateway, sealed)).status, 200);
  });

  it('refuses a tampered MAC, a tampered id under the old MAC, and an id over the length bound', async () => {
    const { gateway, sealed, keys } = await aliceRaw();
    const keysBefore = keys.length;
    const flip = (c: string) => (c === '0' ? '1' : '0');
    const dot = sealed.lastIndexOf('.');
    const tampered = [
      `${sealed.slice(0, -1)}${flip(sealed.at(-1) ?? '')}`,
      `${sealed.slice(0, dot + 1)}${flip(sealed[dot + 1] ?? '')}${sealed.slice(dot + 2)}`,
      `${flip(sealed[0] ?? '')}${sealed.slice(1)}`,
      sealed.slice(0, -2),
      `${sealed}0`,
      sealed.toUpperCase(),
      sealed.slice(0, dot),
    ];
    for (const id of tampered) assertUnknownSession(await send(gateway, id));
    assertUnknownSession(await send(gateway, `${'a'.repeat(maxSealedSessionIdLength)}.${sealed.slice(dot + 1)}`));
    assertUnknownSession(await send(gateway, 'x'.repeat(100_000)));
    assert.equal(keys.length, keysBefore);
  });

  it('keeps sessions across gateways that share SESSION_SECRET, and not across random keys', async () => {
    const { upstream, sealed } = await aliceRaw(secret);
    const elsewhere = gatewayFor(upstream.handle, createMemorySessionStores(), secret);
    assert.equal((await send(elsewhere, sealed)).status, 200);
    const restarted = gatewayFor(upstream.handle, createMemorySessionStores());
    assertUnknownSession(await send(restarted, sealed));
  });

  it('drops, not refuses, an id on a 2026-07-28 request, which has no session: nothing forwards it', async () => {
    const seenIds: (string | null)[] = [];
    const { fetch: upstream } = createListUpstream(() => [{ name: 'echo', inputSchema: { type: 'object' } }]);
    const { stores, keys } = countingStores();
    const gateway = gatewayFor((request) => {
      seenIds.push(request.headers.get('mcp-session-id'));
      return upstream(request);
    }, stores);
    const meta = { [protocolVersionMeta]: '2026-07-28' };
    const answer = await send(gateway, 'forged-1', {
      version: '2026-07-28',
      body: { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: meta } },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(seenIds, [null]);
    assert.deepEqual(keys, [`${await credentialScope(upstreamUrl, alice)}:stateless`]);
  });

  it('answers an upstream session id it cannot seal (not visible ASCII, too long) upstream_malformed, and hands out none', async () => {
    for (const issued of ['has space', 'x'.repeat(maxUpstreamSessionIdLength + 1)]) {
      const gateway = gatewayFor(
        async () =>
          new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {} } }), {
            headers: { 'content-type': 'application/json', 'mcp-session-id': issued },
          }),
        createMemorySessionStores(),
      );
      const response = await gateway(
        new Request('http://gateway.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
        }),
      );
      assert.equal(response.headers.get('mcp-session-id'), null);
      const body = (await response.json()) as { id?: unknown; error?: { data?: { code?: string } } };
      assert.equal(body.id, 1);
      assert.equal(body.error?.data?.code, 'upstream_malformed');
    }
  });
});

describe('createSessionSealer', () => {
  it('unseals what it sealed for the same scope only, and nothing tampered or over the bound', async () => {
    const sealer = createSessionSealer(secret);
    const [a, b] = [await credentialScope(upstreamUrl, alice), await credentialScope(upstreamUrl, mallory)];
    const sealed = (await sealer.seal('up.stream.id', a)) ?? '';
    assert.equal(await sealer.unseal(sealed, a), 'up.stream.id');
    assert.equal(await sealer.unseal(sealed, b), undefined);
    assert.equal(await createSessionSealer(`${secret}!`).unseal(sealed, a), undefined);
    assert.equal(await createSessionSealer().unseal(sealed, a), undefined);
    assert.equal(await sealer.seal('tab\tid', a), undefined);
    assert.equal(await sealer.seal('é', a), undefined);
    assert.equal(await sealer.seal('', a), undefined);
    const longest = (await sealer.seal('x'.repeat(maxUpstreamSessionIdLength), a)) ?? '';
    assert.equal(longest.length, maxSealedSessionIdLength);
    assert.equal(await sealer.unseal(longest, a), 'x'.repeat(maxUpstreamSessionIdLength));
    assert.equal(await sealer.seal('x'.repeat(maxUpstreamSessionIdLength + 1), a), undefined);
    assert.equal(await sealer.unseal(`x${longest}`, a), undefined);
    assert.equal(await sealer.unseal(`${sealed} `, a), undefined);
  });
});
