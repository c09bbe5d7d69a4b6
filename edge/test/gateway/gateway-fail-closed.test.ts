// The gateway against a hostile upstream, in process: hand-made upstream Responses (string ids, duplicate keys,
// text/plain, truncated bodies and streams, silence, huge bodies, endless pages, answers to no request). For each,
// the client gets a JSON-RPC error with a stable data.code, and the upstream's raw bytes never reach it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../src/engine/index.ts';
import { maxToolListPages } from '../../../src/mcp/index.ts';
import { createMcpGateway, type McpGatewayOptions } from '../../src/gateway/mcp-gateway.ts';
import { refusedBodyDrain } from '../../src/http/read-limited-text.ts';
import { createMemorySessionStores } from '../../src/state/session-store.ts';
import { createSseParser } from '../../src/upstream/sse-transform.ts';

/** A marker put into every hostile payload: it must never appear in what the client receives. */
const MARK = 'HOSTILE-7f3a';

type Posted = { id?: unknown; method?: string; params?: Record<string, unknown> };
type Upstream = (message: Posted, n: number) => Response | Promise<Response>;

const engine = createEngine();

function gatewayFor(upstream: Upstream, options: Partial<McpGatewayOptions> = {}) {
  const events: { kind: string; code: string }[] = [];
  let n = 0;
  const gateway = createMcpGateway({
    engine,
    upstreamUrl: 'http://upstream.test/mcp',
    sessions: createMemorySessionStores(),
    outputPolicy: 'enforce',
    upstreamTimeoutMs: 200,
    onEvent: (e) => events.push(e),
    fetch: (async (_input: RequestInfo | URL, init?: RequestInit) =>
      upstream(JSON.parse(String(init?.body ?? '{}')) as Posted, n++)) as typeof fetch,
    ...options,
  });
  return { gateway, events };
}

const post = (message: unknown, headers: Record<string, string> = {}): Request =>
  new Request('http://gateway.test/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });

const json = (text: string, status = 200, type = 'application/json'): Response =>
  new Response(text, { status, headers: { 'content-type': type } });
const sse = (body: string | ReadableStream<Uint8Array>): Response =>
  new Response(body, { headers: { 'content-type': 'text/event-stream' } });

// biome-ignore lint/suspicious/noExplicitAny: messages read back from the wire, asserted on field by field.
type Json = any;

/** Every JSON-RPC message the client receives, JSON or SSE, and the raw text. */
async function received(response: Response): Promise<{ text: string; messages: Json[] }> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return { text, messages: text === '' ? [] : [JSON.parse(text)] };
  const messages = text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
  return { text, messages };
}

/** Asserts the client got exactly one JSON-RPC error for `id` with this data.code, and nothing of the upstream's. */
async function assertFailure(response: Response, id: unknown, code: string): Promise<Json> {
  const { text, messages } = await received(response);
  assert.ok(!text.includes(MARK), `raw upstream bytes reached the client: ${text.slice(0, 200)}`);
  assert.equal(messages.length, 1, text.slice(0, 300));
  const [message] = messages as [Json];
  assert.equal(message.id, id);
  assert.equal(message.error?.data?.code, code, text.slice(0, 300));
  assert.equal(message.error?.code, -32603);
  return message;
}

const list = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
const tools = (extra = '') =>
  `[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}},{"name":"${MARK}","inputSchema":{"type":"object","$ref":"https://x.example/s.json"}}${extra}]`;

/** A body stream that yields `chunks` then either ends, hangs, or errors; records how far it was read and whether it was cancelled. */
function stream(chunks: (string | Uint8Array)[], then: 'end' | 'hang' | 'error' | 'forever' = 'end') {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (state.pulled < chunks.length) {
          const chunk = chunks[state.pulled++] as string | Uint8Array;
          controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
          return;
        }
        state.pulled++;
        if (then === 'end') controller.close();
        else if (then === 'error') controller.error(new Error('connection reset'));
        else if (then === 'forever') controller.enqueue(encoder.encode(`: ${MARK.repeat(50)}\n`));
        else await new Promise(() => undefined);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

describe('gateway fails closed against a hostile upstream', () => {
  it('checks a response whose id is the string "7" as the answer to request 7 (refused tool filtered)', async () => {
    const { gateway } = gatewayFor(() => json(`{"jsonrpc":"2.0","id":"7","result":{"tools":${tools()}}}`));
    const { messages } = await received(await gateway(post(list)));
    assert.equal(messages[0]?.id, 7);
    assert.deepEqual(
      messages[0]?.result.tools.map((t: { name: string }) => t.name),
      ['echo'],
    );
    // The refused tool is named (checked, as data) under _meta, never listed.
    assert.deepEqual(
      messages[0]?.result._meta['io.schemaval/refused'].map((r: { code: string }) => r.code),
      ['remote_ref'],
    );
  });

  it('refuses a JSON body with a duplicate key (upstream_malformed)', async () => {
    const { gateway } = gatewayFor(() => json(`{"jsonrpc":"2.0","id":7,"result":{"tools":[],"tools":${tools()}}}`));
    await assertFailure(await gateway(post(list)), 7, 'upstream_malformed');
  });

  it('refuses an SSE event with a duplicate key and never relays it (upstream_malformed)', async () => {
    const { gateway } = gatewayFor(() => sse(`event: message\ndata: {"jsonrpc":"2.0","id":7,"id":7,"result":{"tools":${tools()}}}\n\n`));
    await assertFailure(await gateway(post(list)), 7, 'upstream_malformed');
  });

  it('refuses a text/plain 200 (upstream_content_type) and a text/plain 502 (upstream_error)', async () => {
    const plain = gatewayFor(() => json(`{"jsonrpc":"2.0","id":7,"result":{"tools":${tools()}}}`, 200, 'text/plain'));
    await assertFailure(await plain.gateway(post(list)), 7, 'upstream_content_type');
    const bad = gatewayFor(() => json(`Bad gateway ${MARK}`, 502, 'text/plain'));
    const response = await bad.gateway(post(list));
    assert.equal(response.status, 200);
    await assertFailure(response, 7, 'upstream_error');
  });

  it('relays a non-2xx JSON-RPC error body parsed and re-serialised, under the client id', async () => {
    const { gateway } = gatewayFor(() => json(`{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"Session not found"}}`, 404));
    const response = await gateway(post(list));
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Session not found' } });
  });

  it('refuses a truncated JSON body (upstream_truncated) and a body that breaks off', async () => {
    const { gateway } = gatewayFor(() => json(`{"jsonrpc":"2.0","id":7,"result":{"tools":${tools()}`));
    await assertFailure(await gateway(post(list)), 7, 'upstream_truncated');
    const broken = gatewayFor(
      () =>
        new Response(stream([`{"jsonrpc":"2.0","id":7,"result":{"${MARK}"`], 'error').body, {
          headers: { 'content-type': 'application/json' },
        }),
    );
    await assertFailure(await broken.gateway(post(list)), 7, 'upstream_truncated');
  });

  it('ends an SSE stream cut off mid-event with upstream_truncated for the pending request', async () => {
    const { gateway } = gatewayFor(() => sse(stream([`data: {"jsonrpc":"2.0","id":7,"result":{"tools":${tools()}}}`], 'end').body));
    await assertFailure(await gateway(post(list)), 7, 'upstream_truncated');
    const empty = gatewayFor(() => sse(''));
    await assertFailure(await empty.gateway(post(list)), 7, 'upstream_truncated');
  });

  it('times out an upstream that never answers, and an SSE stream that goes silent (upstream_timeout)', async () => {
    const hang = gatewayFor(() => new Promise<Response>(() => undefined));
    await assertFailure(await hang.gateway(post(list)), 7, 'upstream_timeout');
    const silent = stream([': keep-alive\n\n'], 'hang');
    const quiet = gatewayFor(() => sse(silent.body));
    await assertFailure(await quiet.gateway(post(list)), 7, 'upstream_timeout');
    assert.equal(silent.state.cancelled, true, 'the silent upstream stream is cancelled');
  });

  it('says upstream_unreachable when the fetch fails, without its error text', async () => {
    const { gateway } = gatewayFor(() => {
      throw new TypeError(`connect ECONNREFUSED ${MARK}`);
    });
    await assertFailure(await gateway(post(list)), 7, 'upstream_unreachable');
  });

  it('caps a huge JSON body, a huge SSE event and an endless SSE stream while streaming (upstream_too_large)', async () => {
    const big = stream(Array.from({ length: 1000 }, () => `${MARK}${' '.repeat(1000)}`));
    const huge = gatewayFor(() => new Response(big.body, { headers: { 'content-type': 'application/json' } }), { upstreamMaxBytes: 8192 });
    await assertFailure(await huge.gateway(post(list)), 7, 'upstream_too_large');
    assert.ok(big.state.pulled < 20 && big.state.cancelled, `read ${big.state.pulled} chunks of 1000, then cancelled`);

    const event = stream([`data: {"x":"${MARK}`, ...Array.from({ length: 1000 }, () => 'x'.repeat(1000))], 'hang');
    const hugeEvent = gatewayFor(() => sse(event.body), { upstreamMaxBytes: 8192 });
    await assertFailure(await hugeEvent.gateway(post(list)), 7, 'upstream_too_large');
    assert.ok(event.state.pulled < 20 && event.state.cancelled);

    const endless = stream([], 'forever');
    const forever = gatewayFor(() => sse(endless.body), { upstreamMaxBytes: 8192 });
    await assertFailure(await forever.gateway(post(list)), 7, 'upstream_too_large');
    assert.ok(endless.state.cancelled);
  });

  it('lists at most maxToolListPages pages (src/mcp) for one call to an unknown tool (too_many_pages)', async () => {
    let lists = 0;
    const { gateway } = gatewayFor((message) => {
      if (message.method === 'tools/list') lists++;
      return json(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [], nextCursor: `page-${lists}` } }));
    });
    const response = await gateway(post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } }));
    await assertFailure(response, 3, 'too_many_pages');
    assert.equal(lists, maxToolListPages);
  });

  it('guards its own tools/list with the same rules: a malformed listing is upstream_malformed, not a pass', async () => {
    const { gateway } = gatewayFor((message) =>
      json(`{"jsonrpc":"2.0","id":"${String(message.id)}","result":{"tools":[],"tools":${tools()}}}`),
    );
    const response = await gateway(post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ghost', arguments: {} } }));
    await assertFailure(response, 3, 'upstream_malformed');
  });

  it('drops a response to an id this POST never sent, and still answers the real request', async () => {
    const { gateway, events } = gatewayFor(() =>
      sse(
        `data: {"jsonrpc":"2.0","id":99,"result":{"${MARK}":true}}\n\n` +
          `id: ev-1\nevent: message\nretry: 500\ndata: {"jsonrpc":"2.0","id":7,"result":{"tools":[]}}\n\n`,
      ),
    );
    const response = await gateway(post(list));
    const { text, messages } = await received(response);
    assert.ok(!text.includes(MARK));
    assert.deepEqual(
      messages.map((m) => m.id),
      [7],
    );
    assert.match(text, /^id: ev-1\nevent: message\nretry: 500\ndata: /m, 'resumability fields are kept');
    assert.ok(events.some((e) => e.code === 'unknown_response'));

    const only = gatewayFor(() => sse(`data: {"jsonrpc":"2.0","id":8,"result":{"${MARK}":1}}\n\n`));
    await assertFailure(await only.gateway(post(list)), 7, 'upstream_truncated');
  });

  it('replaces a response of the wrong shape by upstream_malformed', async () => {
    const { gateway } = gatewayFor(() => json(`{"jsonrpc":"2.0","id":7,"result":"${MARK}"}`));
    await assertFailure(await gateway(post(list)), 7, 'upstream_malformed');
  });
});

describe('gateway refuses what it cannot check: odd elicitation modes, odd tools (issue #17)', () => {
  const ping = { jsonrpc: '2.0', id: 3, method: 'ping' };
  const nested = '{"type":"object","properties":{"address":{"type":"object","properties":{"city":{"type":"string"}}}}}';

  /** An upstream that sends `elicitation` on the stream of the client's ping, then answers it; records what it gets. */
  function elicitingUpstream(elicitation: string) {
    const received: Posted[] = [];
    const { gateway, events } = gatewayFor((message) => {
      received.push(message);
      if (message.method === 'ping') {
        return sse(`data: ${elicitation}\n\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n`);
      }
      return new Response(null, { status: 202 });
    });
    return { gateway, events, received };
  }

  it('refuses an elicitation whose mode is neither "form" nor "url" to the upstream, and never relays it', async () => {
    for (const mode of ['"FORM"', '"Form"', '"form "', 'null', '7', '{"form":true}']) {
      const elicitation = `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"mode":${mode},"message":"${MARK}","requestedSchema":${nested}}}`;
      const { gateway, events, received: upstream } = elicitingUpstream(elicitation);
      const { text, messages } = await received(await gateway(post(ping)));
      assert.ok(!text.includes(MARK), `mode ${mode}: the elicitation reached the client`);
      assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 3, result: {} }], mode);
      const refusal = upstream.find((m) => m.id === 'e1') as Json;
      assert.equal(refusal?.error?.code, -32602, `mode ${mode}: ${JSON.stringify(upstream)}`);
      assert.equal(refusal?.error?.data?.code, 'unknown_mode');
      assert.ok(events.some((e) => e.code === 'unknown_mode'));
    }
  });

  it('still relays a URL-mode elicitation, and checks one with no mode as a form', async () => {
    const url = `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://auth.example/x","elicitationId":"x1"}}`;
    const relayed = await received(await elicitingUpstream(url).gateway(post(ping)));
    assert.deepEqual(
      relayed.messages.map((m) => m.method ?? m.id),
      ['elicitation/create', 3],
    );
    const noMode = `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"${MARK}","requestedSchema":${nested}}}`;
    const { gateway, received: upstream } = elicitingUpstream(noMode);
    const { text } = await received(await gateway(post(ping)));
    assert.ok(!text.includes(MARK));
    assert.equal((upstream.find((m) => m.id === 'e1') as Json)?.error?.data?.code, 'invalid_schema');
  });

  it('sends the upstream -32602 naming a key the form never asked for (isAdmin), never the answer', async () => {
    const form = '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}';
    const elicitation = `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Name","requestedSchema":${form}}}`;
    const { gateway, received: upstream } = elicitingUpstream(elicitation);
    const asked = await received(await gateway(post(ping)));
    assert.equal(asked.messages[0]?.method, 'elicitation/create');
    const answer = { jsonrpc: '2.0', id: 'e1', result: { action: 'accept', content: { name: 'Ada', isAdmin: true } } };
    const response = await gateway(post(answer));
    await response.arrayBuffer();
    const sent = upstream.find((m) => m.id === 'e1') as Json;
    assert.equal(sent?.result, undefined, `the answer was relayed: ${JSON.stringify(sent)}`);
    assert.equal(sent?.error?.code, -32602);
    assert.equal(sent?.error?.data?.code, 'invalid_answer');
    assert.match(sent?.error?.message ?? '', /isAdmin/);
    assert.ok(((sent?.error?.data?.issues ?? []) as { path: string }[]).some((issue) => issue.path.includes('isAdmin')));
  });

  /** An upstream whose tools/list is `toolsJson`; records every tools/call it receives (there must be none). */
  function listingUpstream(toolsJson: string) {
    const calls: Posted[] = [];
    const { gateway } = gatewayFor((message) => {
      if (message.method === 'tools/call') calls.push(message);
      if (message.method === 'tools/list')
        return json(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"tools":${toolsJson}}}`);
      return json(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id ?? null)},"result":{"content":[]}}`);
    });
    return { gateway, calls };
  }

  const echo = '{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}';
  const call = (name: string) => post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {} } });

  /** The tools/list result through the gateway: accepted names and the refusals under _meta. */
  async function listed(gateway: (request: Request) => Promise<Response>) {
    const response = await gateway(post(list));
    assert.equal(response.status, 200);
    const [message] = (await received(response)).messages as [Json];
    return {
      names: (message.result.tools as { name: string }[]).map((t) => t.name),
      refused: (message.result._meta['io.schemaval/refused'] as { name: string; code: string }[]).map((r) => [r.name, r.code]),
    };
  }

  /** Asserts a call was answered by the gateway with -32602 (HTTP 200, never a 500). */
  async function assertRefusedCall(response: Response, code: string) {
    assert.equal(response.status, 200);
    const [message] = (await received(response)).messages as [Json];
    assert.equal(message.id, 9);
    assert.equal(message.error?.code, -32602, JSON.stringify(message));
    assert.equal(message.error?.data?.code, code);
  }

  it('refuses a tool whose name holds a lone surrogate (invalid_tool): listed under _meta, its call -32602, never a 500', async () => {
    const lone = '\ud800';
    const { gateway, calls } = listingUpstream(`[{"name":"\\ud800","inputSchema":{"type":"object"}},${echo}]`);
    assert.deepEqual(await listed(gateway), { names: ['echo'], refused: [[lone, 'invalid_tool']] });
    await assertRefusedCall(await gateway(call(lone)), 'invalid_tool');
    // A gateway that has not seen the list lists it itself first: the same refusal.
    const cold = listingUpstream(`[{"name":"\\ud800","inputSchema":{"type":"object"}},${echo}]`);
    await assertRefusedCall(await cold.gateway(call(lone)), 'invalid_tool');
    assert.deepEqual([...calls, ...cold.calls], []);
  });

  it('refuses every tool of a name listed twice (invalid_tool): none of them callable, not the last one silently', async () => {
    const first = '{"name":"dup","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}';
    const second = '{"name":"dup","inputSchema":{"type":"object"}}';
    const { gateway, calls } = listingUpstream(`[${first},${echo},${second}]`);
    assert.deepEqual(await listed(gateway), {
      names: ['echo'],
      refused: [
        ['dup', 'invalid_tool'],
        ['dup', 'invalid_tool'],
      ],
    });
    await assertRefusedCall(await gateway(call('dup')), 'invalid_tool');
    const cold = listingUpstream(`[${first},${echo},${second}]`);
    await assertRefusedCall(await cold.gateway(call('dup')), 'invalid_tool');
    assert.deepEqual([...calls, ...cold.calls], []);
  });
});

describe('gateway reads the client message within bounds', () => {
  const never = () => {
    throw new Error('nothing may be forwarded');
  };

  it('answers 415 unsupported_media_type to a POST that is not application/json, draining its body', async () => {
    const upload = stream(Array.from({ length: 100 }, () => ' '.repeat(1024)));
    const { gateway } = gatewayFor(never);
    const response = await gateway(
      new Request('http://gateway.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: upload.body,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(response.status, 415);
    assert.equal((await response.json()).error.data.code, 'unsupported_media_type');
    // Read to its end and dropped, not cancelled: a cancelled upload costs the next request its connection (#17).
    assert.equal(upload.state.pulled, 101);
    assert.equal(upload.state.cancelled, false);
  });

  it('answers 413 as soon as a chunked upload passes the limit, keeping nothing past it, and drains the rest', async () => {
    const upload = stream(Array.from({ length: 1000 }, () => ' '.repeat(1024)));
    const { gateway } = gatewayFor(never, { maxBodyBytes: 16 * 1024 });
    const response = await gateway(
      new Request('http://gateway.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: upload.body,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(response.status, 413);
    assert.equal((await response.json()).error.data.code, 'message_too_large');
    assert.equal(upload.state.pulled, 1001, 'the rest is read and dropped');
    assert.equal(upload.state.cancelled, false);
  });

  it('cancels an upload that goes on past what a refusal drains', async () => {
    const chunk = 64 * 1024;
    const upload = stream(Array.from({ length: 1000 }, () => new Uint8Array(chunk)));
    const { gateway } = gatewayFor(never, { maxBodyBytes: 16 * 1024 });
    const response = await gateway(
      new Request('http://gateway.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: upload.body,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(response.status, 413);
    assert.ok(upload.state.pulled <= refusedBodyDrain.maxBytes / chunk + 2, `read ${upload.state.pulled} chunks of 1000`);
    assert.ok(upload.state.cancelled);
  });

  it('refuses duplicate keys, batches, bad ids and a tools/call notification with their data.code', async () => {
    const { gateway } = gatewayFor(never);
    const cases: [string, number, string][] = [
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}', 400, 'malformed_message'],
      ['[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', 400, 'batch_not_supported'],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', 400, 'malformed_message'],
      ['{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}', 400, 'notification_not_allowed'],
    ];
    for (const [body, status, code] of cases) {
      const response = await gateway(
        new Request('http://gateway.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      );
      assert.equal(response.status, status, body);
      const error = (await response.json()).error;
      assert.equal(error.data.code, code, body);
      assert.equal(error.code, code === 'malformed_message' ? -32700 : -32600);
    }
  });
});

describe('SSE parser', () => {
  it('reads a 20 MB unterminated event split in 64 KiB chunks looking at each byte once', () => {
    const parser = createSseParser({ maxEventBytes: 32 * 1024 * 1024 });
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const head = new TextEncoder().encode('data: ');
    parser.push(head);
    const count = Math.ceil((20 * 1024 * 1024) / chunk.length);
    for (let i = 0; i < count; i++) assert.equal(parser.push(chunk).events.length, 0);
    // Each byte scanned once: the count is the bound (a rescan per chunk would be quadratic).
    assert.equal(parser.scannedBytes, head.length + count * chunk.length);
    assert.equal(parser.end().truncated, true);
  });

  it('splits events on CRLF, CR and LF, also across chunks, and keeps id, event and retry', () => {
    const parser = createSseParser({ maxEventBytes: 1024 });
    const text = 'id: 1\r\nevent: message\rdata: {"a":\ndata: 1}\r\n\r\n: ping\n\nretry: 10\n\n';
    const events = [];
    for (const byte of new TextEncoder().encode(text)) events.push(...parser.push(Uint8Array.of(byte)).events);
    assert.deepEqual(events, [
      {
        data: '{"a":\n1}',
        fields: [
          ['id', '1'],
          ['event', 'message'],
        ],
      },
      { data: undefined, fields: [['comment', '']] },
      { data: undefined, fields: [['retry', '10']] },
    ]);
    assert.equal(parser.end().truncated, false);
  });

  it('stops at an event over the cap', () => {
    const parser = createSseParser({ maxEventBytes: 100 });
    assert.equal(parser.push(new TextEncoder().encode(`data: ${'x'.repeat(200)}`)).overflow, true);
  });
});
