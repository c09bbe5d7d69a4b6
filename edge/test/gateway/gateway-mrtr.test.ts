// MCP 2026-07-28 through the gateway, in process: a v2 SDK Client (and raw JSON-RPC) → the gateway → a v2 SDK
// upstream that asks for input the MRTR way. Elicitation answers come back in a retried tools/call, and the gateway
// checks them against the form it let through, bound to the requestState it sealed.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine } from '../../../src/engine/index.ts';
import { createMrtrUpstream, type MrtrUpstream, upstreamState } from '../../../test/helpers/mrtr-upstream.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { createRequestStateSealer } from '../../src/gateway/request-state.ts';
import { createMemorySessionStores } from '../../src/state/session-store.ts';

const secret = 'test-request-state-secret';
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

let upstream: MrtrUpstream | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await upstream?.close();
  upstream = undefined;
});

function setup() {
  upstream = createMrtrUpstream();
  const own = upstream;
  const gateway = createMcpGateway({
    engine: createEngine(),
    upstreamUrl: 'http://upstream.test/mcp',
    sessions: createMemorySessionStores(),
    outputPolicy: 'enforce',
    requestStateSecret: secret,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => own.handle(new Request(input, init))) as typeof fetch,
  });
  const gatewayFetch = ((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch;
  return { upstream: own, gatewayFetch };
}

/** A v2 client pinned to 2026-07-28 that answers elicitations (and sampling) with `answer`. */
async function modernClient(gatewayFetch: typeof fetch, answer: (params: Record<string, unknown>) => unknown) {
  const client = new ClientV2(
    { name: 'host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params as never) as never);
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'short' },
    model: 'test',
    stopReason: 'endTurn',
  }));
  await client.connect(new TransportV2(new URL('http://gateway.test/mcp'), { fetch: gatewayFetch }));
  closers.push(() => client.close());
  return client;
}

/** One raw JSON-RPC tools/call in the 2026-07-28 shape; returns the parsed reply. */
async function rawCall(gatewayFetch: typeof fetch, id: number, params: Record<string, unknown>, authorization?: string) {
  const response = await gatewayFetch('http://gateway.test/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: meta, ...params } }),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const data = type.includes('text/event-stream') ? (text.match(/^data: ?(.*)$/m)?.[1] ?? '') : text;
  return JSON.parse(data) as {
    id: number;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected the call to fail'),
    (error: Error & { code?: number; data?: { code?: string; input?: string; issues?: { path: string }[] } }) => error,
  );

describe('gateway, MRTR (2026-07-28)', () => {
  it('forwards a right answer with its defaults filled in and the upstream state restored', async () => {
    const { upstream, gatewayFetch } = setup();
    const client = await modernClient(gatewayFetch, () => ({ action: 'accept', content: { email: 'ada@example.com' } }));
    const result = await client.callTool({ name: 'signup', arguments: { plan: 'pro' } });
    assert.deepEqual(result.structuredContent, { email: 'ada@example.com', tier: 'free' });
    assert.equal(upstream.calls.length, 2);
    assert.deepEqual(upstream.calls[1]?.inputResponses, {
      profile: { action: 'accept', content: { email: 'ada@example.com', tier: 'free' } },
    });
    assert.equal(upstream.calls[1]?.requestState, upstreamState);
  });

  it('never forwards a wrong answer: -32602 naming the input key and the paths', async () => {
    const { upstream, gatewayFetch } = setup();
    const client = await modernClient(gatewayFetch, () => ({ action: 'accept', content: { email: 'not-an-email', age: 12 } }));
    const error = await failure(client.callTool({ name: 'signup', arguments: { plan: 'pro' } }));
    assert.equal(error.code, -32602);
    assert.match(error.message, /inputResponses\.profile: \$\.email: /);
    assert.match(error.message, /\$\.age: /);
    assert.equal(error.data?.code, 'invalid_answer');
    assert.equal(error.data?.input, 'profile');
    assert.deepEqual(error.data?.issues?.map((issue) => issue.path).sort(), ['$.age', '$.email']);
    assert.equal(upstream.calls.length, 1, 'only the first round reached the upstream');
  });

  it('keeps a form outside the restricted subset from the client (invalid_schema)', async () => {
    const { upstream, gatewayFetch } = setup();
    let asked = 0;
    const client = await modernClient(gatewayFetch, () => {
      asked++;
      return { action: 'accept', content: {} };
    });
    const error = await failure(client.callTool({ name: 'ship', arguments: {} }));
    assert.equal(error.data?.code, 'invalid_schema');
    assert.equal(asked, 0);
    assert.equal(upstream.calls.length, 1);
  });

  it('passes a sampling input request through unchanged, and its answer back', async () => {
    const { upstream, gatewayFetch } = setup();
    const client = await modernClient(gatewayFetch, () => ({ action: 'cancel' }));
    const result = await client.callTool({ name: 'summarize', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'summarized' }]);
    assert.equal((upstream.calls[1]?.inputResponses?.draft as { model?: string } | undefined)?.model, 'test');
    assert.equal(upstream.calls[1]?.requestState, undefined, 'the upstream sent no requestState, so none is restored');
  });

  it('replaces the upstream requestState by a signed envelope', async () => {
    const { gatewayFetch } = setup();
    const first = await rawCall(gatewayFetch, 1, { name: 'signup', arguments: { plan: 'pro' } });
    assert.equal(first.result?.resultType, 'input_required');
    const state = String(first.result?.requestState);
    assert.notEqual(state, upstreamState);
    assert.match(state, /^sv1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  describe('refuses a retry it cannot vouch for, and forwards nothing', () => {
    const answer = { profile: { action: 'accept', content: { email: 'ada@example.com' } } };

    async function issued(gatewayFetch: typeof fetch, authorization?: string): Promise<string> {
      const first = await rawCall(gatewayFetch, 1, { name: 'signup', arguments: { plan: 'pro' } }, authorization);
      return String(first.result?.requestState);
    }

    it('a tampered requestState (one payload character changed)', async () => {
      const { upstream, gatewayFetch } = setup();
      const state = await issued(gatewayFetch);
      const at = 8;
      const tampered = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
      const reply = await rawCall(gatewayFetch, 2, {
        name: 'signup',
        arguments: { plan: 'pro' },
        inputResponses: answer,
        requestState: tampered,
      });
      assert.equal(reply.error?.code, -32602);
      assert.equal(reply.error?.data?.code, 'invalid_request_state');
      assert.equal(upstream.calls.length, 1);
    });

    it('a requestState forged with another key, or one the upstream minted', async () => {
      const { upstream, gatewayFetch } = setup();
      await issued(gatewayFetch);
      const forged = await createRequestStateSealer('another-secret').seal({
        tool: 'signup',
        scope: 'any',
        state: upstreamState,
        inputs: { profile: null },
        expires: Date.now() + 60_000,
      });
      for (const requestState of [forged, upstreamState]) {
        const reply = await rawCall(gatewayFetch, 2, { name: 'signup', arguments: { plan: 'pro' }, inputResponses: answer, requestState });
        assert.equal(reply.error?.data?.code, 'invalid_request_state');
      }
      const bare = await rawCall(gatewayFetch, 3, { name: 'signup', arguments: { plan: 'pro' }, inputResponses: answer });
      assert.equal(bare.error?.data?.code, 'invalid_request_state', 'inputResponses without any requestState');
      assert.equal(upstream.calls.length, 1);
    });

    it('an expired requestState', async () => {
      const { upstream, gatewayFetch } = setup();
      const expired = await createRequestStateSealer(secret).seal({
        tool: 'signup',
        scope: 'x',
        inputs: { profile: null },
        expires: Date.now() - 1,
      });
      const reply = await rawCall(gatewayFetch, 2, {
        name: 'signup',
        arguments: { plan: 'pro' },
        inputResponses: answer,
        requestState: expired,
      });
      assert.equal(reply.error?.data?.code, 'invalid_request_state');
      assert.match(reply.error?.message ?? '', /expired/);
      assert.equal(upstream.calls.length, 0);
    });

    it('a requestState presented for another tool or under another credential', async () => {
      const { upstream, gatewayFetch } = setup();
      const state = await issued(gatewayFetch, 'Bearer alice');
      const otherTool = await rawCall(
        gatewayFetch,
        2,
        { name: 'ship', arguments: {}, inputResponses: {}, requestState: state },
        'Bearer alice',
      );
      assert.equal(otherTool.error?.data?.code, 'invalid_request_state');
      const otherCredential = await rawCall(
        gatewayFetch,
        3,
        { name: 'signup', arguments: { plan: 'pro' }, inputResponses: answer, requestState: state },
        'Bearer mallory',
      );
      assert.equal(otherCredential.error?.data?.code, 'invalid_request_state');
      assert.equal(upstream.calls.length, 1);
    });

    it('a response key the envelope does not name (unknown_input_response)', async () => {
      const { upstream, gatewayFetch } = setup();
      const state = await issued(gatewayFetch);
      const reply = await rawCall(gatewayFetch, 2, {
        name: 'signup',
        arguments: { plan: 'pro' },
        inputResponses: { ...answer, smuggled: { action: 'accept', content: { admin: true } } },
        requestState: state,
      });
      assert.equal(reply.error?.code, -32602);
      assert.equal(reply.error?.data?.code, 'unknown_input_response');
      assert.equal(reply.error?.data?.input, 'smuggled');
      assert.equal(upstream.calls.length, 1);
    });

    it('invalid arguments on the retry, even with a good answer', async () => {
      const { upstream, gatewayFetch } = setup();
      const state = await issued(gatewayFetch);
      const reply = await rawCall(gatewayFetch, 2, { name: 'signup', arguments: { plan: 7 }, inputResponses: answer, requestState: state });
      assert.equal(reply.error?.code, -32602);
      assert.match(reply.error?.message ?? '', /\$\.plan/);
      assert.equal(upstream.calls.length, 1);
    });
  });

  it('never forwards an answer with a key the form never asked for (isAdmin): -32602 naming the key', async () => {
    const { upstream, gatewayFetch } = setup();
    const client = await modernClient(gatewayFetch, () => ({ action: 'accept', content: { email: 'ada@example.com', isAdmin: true } }));
    const error = await failure(client.callTool({ name: 'signup', arguments: { plan: 'pro' } }));
    assert.equal(error.code, -32602);
    assert.equal(error.data?.code, 'invalid_answer');
    assert.equal(error.data?.input, 'profile');
    assert.match(error.message, /isAdmin/);
    assert.ok(
      error.data?.issues?.some((issue) => issue.path.includes('isAdmin')),
      JSON.stringify(error.data?.issues),
    );
    assert.equal(upstream.calls.length, 1, 'only the first round reached the upstream');
  });

  it('keeps an elicitation whose mode is neither "form" nor "url" from the client (unknown_mode)', async () => {
    for (const mode of ['FORM', 'Url', null, 1]) {
      const seen: string[] = [];
      const gateway = createMcpGateway({
        engine: createEngine(),
        upstreamUrl: 'http://upstream.test/mcp',
        sessions: createMemorySessionStores(),
        outputPolicy: 'enforce',
        requestStateSecret: secret,
        // A hand-made upstream: the SDK's own builders would not send such a mode.
        fetch: (async (_input: RequestInfo | URL, init?: RequestInit) => {
          const message = JSON.parse(String(init?.body)) as { id: number; method: string };
          seen.push(message.method);
          const result =
            message.method === 'tools/list'
              ? { tools: [{ name: 'odd', inputSchema: { type: 'object' } }] }
              : {
                  resultType: 'input_required',
                  inputRequests: {
                    profile: {
                      method: 'elicitation/create',
                      params: { mode, message: 'HIDDEN-FORM', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } },
                    },
                  },
                  requestState: 'upstream-odd',
                };
          return Response.json({ jsonrpc: '2.0', id: message.id, result });
        }) as typeof fetch,
      });
      const gatewayFetch = ((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch;
      const reply = await rawCall(gatewayFetch, 1, { name: 'odd', arguments: {} });
      assert.equal(reply.error?.code, -32602, `mode ${JSON.stringify(mode)}: ${JSON.stringify(reply)}`);
      assert.equal(reply.error?.data?.code, 'unknown_mode');
      assert.equal(reply.error?.data?.input, 'profile');
      assert.doesNotMatch(JSON.stringify(reply), /HIDDEN-FORM|upstream-odd|requestState/);
      assert.deepEqual(seen, ['tools/list', 'tools/call']);
    }
  });

  it('still serves a 2025-11-25 client alongside (initialize, checked calls)', async () => {
    const { upstream, gatewayFetch } = setup();
    const modern = await modernClient(gatewayFetch, () => ({ action: 'accept', content: { email: 'ada@example.com' } }));
    const legacy = new Client({ name: 'legacy-host', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), { fetch: gatewayFetch }));
    closers.push(() => legacy.close());
    assert.deepEqual((await legacy.listTools()).tools.map((tool) => tool.name).sort(), ['echo', 'ship', 'signup', 'summarize']);
    const refused = await failure(legacy.callTool({ name: 'echo', arguments: { text: 5 } }));
    assert.equal(refused.code, -32602);
    const echoed = await legacy.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(echoed.content, [{ type: 'text', text: 'hi' }]);
    const signed = await modern.callTool({ name: 'signup', arguments: { plan: 'pro' } });
    assert.deepEqual(signed.structuredContent, { email: 'ada@example.com', tier: 'free' });
    assert.deepEqual(
      upstream.calls.map((call) => call.name),
      ['echo', 'signup', 'signup'],
    );
  });
});
