// Issue #10's acceptance in real workerd: a real SDK v1 Client (and raw fetch, where the SDK would hide the bytes) →
// the gateway under `wrangler dev` → a hostile upstream on 127.0.0.1. Nothing unchecked reaches the client, every
// failure is a JSON-RPC error with the contract's data.code, the upstream never receives an unchecked call or answer,
// one credential's list never loosens another's checks, and workerd's memory stays bounded while 50 MB bodies arrive.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { maxToolListPages } from '../../../src/mcp/index.ts';
import {
  canary,
  createHostileUpstream,
  type HostileTool,
  type HostileUpstream,
  type ListMode,
} from '../../../test/helpers/hostile-upstream.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

const timeoutMs = 2000;
const maxBytes = 1024 * 1024;
/** Liveness cap for one request through the gateway: generous next to the 2 s upstream timeout. */
const capMs = 8_000;
/** Per test: a few capped requests each. */
const perTest = { timeout: 40_000 };
/** Most `tools/list` pages one call to an unknown tool may cost: every surface's listing bound (src/mcp, issue 18). */
const maxPagesPerCall = maxToolListPages;

interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: { readonly code?: string } & Record<string, unknown>;
}
type Message = Record<string, unknown> & { id?: unknown; error?: RpcError; result?: Record<string, unknown> };

interface RawReply {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  readonly messages: Message[];
}

/** The `data:` payloads of an SSE body, one per event, parsed (an unparseable one fails the test: we made it). */
function sseMessages(text: string): Message[] {
  return text
    .split(/\r\n\r\n|\n\n|\r\r/)
    .map((event) =>
      event
        .split(/\r\n|\n|\r/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Message);
}

/**
 * The workerd processes started below this test process (found through /proc), with their RSS and peak RSS summed:
 * wrangler dev runs two (the Worker's runtime and its dev proxy), and the sum bounds each.
 */
function workerdMemory(): { rss: number; peak: number; pids: number[] } {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces or parentheses, so read around the last ')'.
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  const pids = [...names].filter(([pid, name]) => name.startsWith('workerd') && isDescendant(pid)).map(([pid]) => pid);
  let rss = 0;
  let peak = 0;
  for (const pid of pids) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    peak += Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }
  return { rss, peak, pids };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe('gateway under wrangler dev against a hostile upstream (issue #10)', () => {
  let upstream: HostileUpstream;
  let dev: WranglerDev;
  const clients: Client[] = [];
  /** Elicitation requests that reached an SDK client's handler. */
  const elicitationsSeen: unknown[] = [];
  let rawId = 9000;

  before(async () => {
    upstream = createHostileUpstream();
    const upstreamUrl = await upstream.listen();
    dev = await startWranglerDev({
      UPSTREAM_MCP_URL: upstreamUrl,
      OUTPUT_POLICY: 'enforce',
      UPSTREAM_TIMEOUT_MS: String(timeoutMs),
      UPSTREAM_MAX_BYTES: String(maxBytes),
    });
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await dev?.stop();
    await upstream?.close();
  });

  /** A real SDK v1 Client connected through the gateway with this credential. */
  async function connect(credential: string): Promise<Client> {
    const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicitationsSeen.push(request.params);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** POSTs one JSON-RPC message to /mcp as a stateless 2025-11-25 client would, and reads every byte of the answer. */
  async function raw(credential: string, message: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
    const response = await fetch(`${dev.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${credential}`,
        ...headers,
      },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(capMs),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    let messages: Message[] = [];
    if (type.includes('text/event-stream')) messages = sseMessages(text);
    else if (type.includes('application/json') && text !== '') {
      const parsed = JSON.parse(text) as Message | Message[];
      messages = Array.isArray(parsed) ? parsed : [parsed];
    }
    return { status: response.status, type, text, messages };
  }

  const rejected = (promise: Promise<unknown>): Promise<McpError> =>
    promise.then(
      (value) => assert.fail(`expected a JSON-RPC error, got ${JSON.stringify(value).slice(0, 300)}`),
      (error: McpError) => error,
    );

  /** The SDK surfaced a JSON-RPC error from the gateway with this code and data.code. */
  function assertRpcError(error: McpError, code: number, dataCode: string): void {
    assert.equal(error.code, code, `${error.message}`);
    assert.equal((error.data as { code?: string } | undefined)?.code, dataCode, `data: ${JSON.stringify(error.data)}`);
  }

  /** The raw answer is a 200 carrying exactly one error under `id`, with the contract's codes, and no hostile byte. */
  function assertRawError(reply: RawReply, id: number, code: number, dataCode: string): void {
    assert.ok(!reply.text.includes(canary), `hostile bytes relayed: ${reply.text.slice(0, 300)}`);
    assert.equal(reply.status, 200, `status ${reply.status}: ${reply.text.slice(0, 300)}`);
    assert.match(reply.type, /application\/json|text\/event-stream/);
    const answers = reply.messages.filter((m) => m.id === id || m.id === String(id));
    assert.equal(answers.length, 1, `one answer under id ${id}: ${reply.text.slice(0, 300)}`);
    assert.equal(answers[0]?.result, undefined);
    assert.equal(answers[0]?.error?.code, code);
    assert.equal(answers[0]?.error?.data?.code, dataCode);
  }

  describe('tools/list misbehaving per credential', () => {
    const cases: { mode: ListMode; dataCode: string }[] = [
      { mode: 'dup-json', dataCode: 'upstream_malformed' },
      { mode: 'dup-sse', dataCode: 'upstream_malformed' },
      { mode: 'text-plain', dataCode: 'upstream_content_type' },
      { mode: 'truncated', dataCode: 'upstream_truncated' },
      { mode: 'sse-cut', dataCode: 'upstream_truncated' },
      { mode: 'hang', dataCode: 'upstream_timeout' },
      { mode: 'error-500', dataCode: 'upstream_error' },
      // A 200 stream that ends before answering: the answer was cut off (stricter reading: an error, not silence).
      { mode: 'empty-stream', dataCode: 'upstream_truncated' },
    ];

    it('string ids: the refused tool in an answer with id "7" for 7 never reaches the client', perTest, async () => {
      const client = await connect('list:string-id');
      const { tools } = await client.listTools(undefined, { timeout: capMs });
      assert.ok(tools.some((t) => t.name === 'transfer'));
      assert.ok(!tools.some((t) => t.name === 'refused-remote'), 'the refused tool reached the client');
      const reply = await raw('list:string-id', { jsonrpc: '2.0', id: 7, method: 'tools/list' });
      assert.ok(!reply.text.includes(canary), 'the refused tool reached the client in raw bytes');
      assert.equal(reply.status, 200);
    });

    it('string ids: a call to the refused tool (listed under id "N" for N) is refused here and never forwarded', perTest, async () => {
      const id = rawId++;
      const reply = await raw('list:string-id', {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'refused-remote', arguments: {} },
      });
      assertRawError(reply, id, -32602, 'remote_ref');
      assert.equal(upstream.requests('tools/call', 'Bearer list:string-id').length, 0, 'the refused call reached the upstream');
    });

    for (const { mode, dataCode } of cases) {
      it(`${mode}: tools/list is a JSON-RPC error with data.code ${dataCode}, and no hostile byte`, perTest, async () => {
        const client = await connect(`list:${mode}`);
        assertRpcError(await rejected(client.listTools(undefined, { timeout: capMs })), -32603, dataCode);
        const id = rawId++;
        assertRawError(await raw(`list:${mode}`, { jsonrpc: '2.0', id, method: 'tools/list' }), id, -32603, dataCode);
      });
    }

    it(`forever: one call to an unknown tool costs at most ${maxPagesPerCall} pages and is answered too_many_pages`, perTest, async () => {
      const client = await connect('list:forever');
      const before = upstream.requests('tools/list', 'Bearer list:forever').length;
      assertRpcError(
        await rejected(client.callTool({ name: 'nowhere', arguments: {} }, undefined, { timeout: capMs })),
        -32603,
        'too_many_pages',
      );
      const pages = upstream.requests('tools/list', 'Bearer list:forever').length - before;
      console.log(`paginate-forever: one unknown-tool call cost ${pages} tools/list pages`);
      assert.ok(pages >= 1 && pages <= maxPagesPerCall, `${pages} pages`);
      assert.equal(upstream.requests('tools/call', 'Bearer list:forever').length, 0, 'the unknown call was forwarded');
    });
  });

  describe('tools/call misbehaving per tool', () => {
    const cases: { tool: HostileTool; code: number; dataCode: string }[] = [
      // Under OUTPUT_POLICY=enforce the result whose id is "N" for N is checked like any other and withheld.
      { tool: 'string-id-output', code: -32602, dataCode: 'structured_content_invalid' },
      { tool: 'dup-json', code: -32603, dataCode: 'upstream_malformed' },
      { tool: 'dup-sse', code: -32603, dataCode: 'upstream_malformed' },
      { tool: 'text-plain', code: -32603, dataCode: 'upstream_content_type' },
      { tool: 'truncated', code: -32603, dataCode: 'upstream_truncated' },
      { tool: 'sse-cut', code: -32603, dataCode: 'upstream_truncated' },
      { tool: 'hang', code: -32603, dataCode: 'upstream_timeout' },
      // Stricter reading: the timeout also covers an SSE stream that never delivers the answer.
      { tool: 'hang-sse', code: -32603, dataCode: 'upstream_timeout' },
      { tool: 'error-500', code: -32603, dataCode: 'upstream_error' },
      { tool: 'error-502-text', code: -32603, dataCode: 'upstream_error' },
      { tool: 'empty-stream', code: -32603, dataCode: 'upstream_truncated' },
    ];
    let alice: Client;
    before(async () => {
      alice = await connect('alice');
      await alice.listTools(undefined, { timeout: capMs });
    });

    for (const { tool, code, dataCode } of cases) {
      it(`${tool}: the client gets a JSON-RPC error with data.code ${dataCode}, and no hostile byte`, perTest, async () => {
        assertRpcError(await rejected(alice.callTool({ name: tool, arguments: {} }, undefined, { timeout: capMs })), code, dataCode);
        const id = rawId++;
        const reply = await raw('alice', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } });
        assertRawError(reply, id, code, dataCode);
      });
    }

    it('an elicitation outside the form subset is refused to the upstream and never reaches the client', perTest, async () => {
      const seenBefore = elicitationsSeen.length;
      const result = await alice.callTool({ name: 'elicit-bad', arguments: {} }, undefined, { timeout: capMs });
      assert.equal(result.isError, undefined);
      assert.equal(elicitationsSeen.length, seenBefore, 'the client was asked a non-subset form');
      const refusals = upstream.responses().filter((m) => (m.error as RpcError | undefined)?.data?.code === 'invalid_schema');
      assert.ok(refusals.length >= 1, 'the upstream got no invalid_schema refusal');
      assert.ok(!upstream.responses().some((m) => 'result' in m && Number(m.id) >= 1000), 'an answer to the bad form reached the upstream');
    });

    it('an elicitation with a duplicate key is never relayed: the call ends upstream_malformed', perTest, async () => {
      const seenBefore = elicitationsSeen.length;
      assertRpcError(
        await rejected(alice.callTool({ name: 'elicit-dup', arguments: {} }, undefined, { timeout: capMs })),
        -32603,
        'upstream_malformed',
      );
      assert.equal(elicitationsSeen.length, seenBefore, 'the client was asked a form the gateway could not check');
      const id = rawId++;
      assertRawError(
        await raw('alice', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'elicit-dup', arguments: {} } }),
        id,
        -32603,
        'upstream_malformed',
      );
    });

    it('a client answer with id "N" for elicitation N is validated before the upstream sees it', perTest, async () => {
      const response = await fetch(`${dev.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: 'Bearer alice',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: rawId++, method: 'tools/call', params: { name: 'elicit-good', arguments: {} } }),
        signal: AbortSignal.timeout(capMs),
      });
      assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      let request: Message | undefined;
      while (request === undefined) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        request = sseMessages(text.slice(0, text.lastIndexOf('\n\n') + 2)).find((m) => m.method === 'elicitation/create');
      }
      assert.ok(request !== undefined, 'no elicitation arrived');
      const before = upstream.responses().length;
      // Invalid: name is empty and age is negative; the id is the string form of the number the upstream used.
      await raw('alice', { jsonrpc: '2.0', id: String(request.id), result: { action: 'accept', content: { name: '', age: -1 } } });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const arrived = upstream.responses().slice(before);
      assert.equal(arrived.length, 1);
      assert.equal(arrived[0]?.result, undefined, `an invalid answer reached the upstream: ${JSON.stringify(arrived[0])}`);
      assert.equal((arrived[0]?.error as RpcError | undefined)?.data?.code, 'invalid_answer');
    });

    describe('huge bodies: workerd memory stays bounded', () => {
      let start: ReturnType<typeof workerdMemory>;
      before(() => {
        start = workerdMemory();
        assert.ok(start.pids.length >= 1, 'no workerd process found below this test');
      });
      after(() => {
        const end = workerdMemory();
        console.log(
          `workerd RSS (pids ${end.pids.join(',')}): before ${mb(start.rss)} (peak so far ${mb(start.peak)}), ` +
            `after ${mb(end.rss)}, peak ${mb(end.peak)}; upstream wrote ${[...upstream.hugeWritten].map(([k, v]) => `${k} ${mb(v)}`).join(', ')}`,
        );
      });

      const huge: { tool?: HostileTool; mode?: ListMode }[] = [{ tool: 'huge-json' }, { tool: 'huge-sse' }, { mode: 'huge' }];
      for (const { tool, mode } of huge) {
        it(
          `${tool ?? `list:${mode}`}: a 50 MB answer is upstream_too_large, and workerd's RSS grows less than 200 MB`,
          perTest,
          async () => {
            if (tool !== undefined) {
              assertRpcError(
                await rejected(alice.callTool({ name: tool, arguments: {} }, undefined, { timeout: capMs })),
                -32603,
                'upstream_too_large',
              );
              const id = rawId++;
              assertRawError(
                await raw('alice', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } }),
                id,
                -32603,
                'upstream_too_large',
              );
            } else {
              const client = await connect(`list:${mode}`);
              assertRpcError(await rejected(client.listTools(undefined, { timeout: capMs })), -32603, 'upstream_too_large');
              const id = rawId++;
              assertRawError(await raw(`list:${mode}`, { jsonrpc: '2.0', id, method: 'tools/list' }), id, -32603, 'upstream_too_large');
            }
            const now = workerdMemory();
            assert.ok(now.peak - start.rss < 200 * 1024 * 1024, `workerd peak RSS ${mb(now.peak)} vs ${mb(start.rss)} before`);
          },
        );
      }
    });
  });

  describe('per-credential state: Mallory never loosens Alice', () => {
    it(
      'stateless upstream: after Mallory lists her looser transfer, Alice’s out-of-schema transfer is still refused here',
      perTest,
      async () => {
        const alice = await connect('alice');
        const mallory = await connect('mallory');
        const aliceTransfer = (await alice.listTools(undefined, { timeout: capMs })).tools.find((t) => t.name === 'transfer');
        assert.equal((aliceTransfer?.inputSchema.properties?.amount as { maximum?: number } | undefined)?.maximum, 100);
        const malloryTransfer = (await mallory.listTools(undefined, { timeout: capMs })).tools.find((t) => t.name === 'transfer');
        assert.equal((malloryTransfer?.inputSchema.properties?.amount as { maximum?: number } | undefined)?.maximum, undefined);

        const error = await rejected(
          alice.callTool({ name: 'transfer', arguments: { to: 'mallory', amount: 1000 } }, undefined, { timeout: capMs }),
        );
        assertRpcError(error, -32602, 'invalid_arguments');
        // Mallory's own list allows it, so hers goes through: the checks are per credential, not merely strict.
        await mallory.callTool({ name: 'transfer', arguments: { to: 'mallory', amount: 1000 } }, undefined, { timeout: capMs });

        const over = (auth: string) =>
          upstream
            .requests('tools/call', auth)
            .filter((m) => Number((m.params as { arguments?: { amount?: unknown } }).arguments?.amount) > 100);
        assert.equal(over('Bearer alice').length, 0, 'Alice’s out-of-schema transfer reached the upstream');
        assert.equal(over('Bearer mallory').length, 1);
      },
    );

    it(
      'a raw call with Alice’s credential after Mallory’s list (no list of Alice’s own first) is still checked against Alice’s',
      perTest,
      async () => {
        const mallory = await connect('mallory');
        await mallory.listTools(undefined, { timeout: capMs });
        const id = rawId++;
        const reply = await raw('alice', {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'transfer', arguments: { to: 'm', amount: 5000 } },
        });
        assertRawError(reply, id, -32602, 'invalid_arguments');
        assert.equal(
          upstream
            .requests('tools/call', 'Bearer alice')
            .filter((m) => Number((m.params as { arguments?: { amount?: unknown } }).arguments?.amount) > 100).length,
          0,
        );
      },
    );

    it('a forged Mcp-Session-Id: Mallory listing in Alice’s session does not replace Alice’s checks', perTest, async () => {
      const alice = await connect('alice+session');
      await alice.listTools(undefined, { timeout: capMs });
      const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId;
      assert.ok(sessionId !== undefined, 'the upstream gave Alice a session');
      // Mallory (with her own credential) tries to list inside Alice's session. The id is sealed to Alice's
      // credential, so the gateway answers 404 unknown_session and the sloppy upstream never hears of it.
      const mallorysBefore = upstream.requests('tools/list', 'Bearer mallory+session').length;
      const forged = await raw('mallory+session', { jsonrpc: '2.0', id: rawId++, method: 'tools/list' }, { 'mcp-session-id': sessionId });
      assert.equal(forged.status, 404, forged.text.slice(0, 300));
      assert.equal(forged.messages[0]?.error?.data?.code, 'unknown_session');
      assert.equal(upstream.requests('tools/list', 'Bearer mallory+session').length, mallorysBefore);
      const error = await rejected(
        alice.callTool({ name: 'transfer', arguments: { to: 'mallory', amount: 1000 } }, undefined, { timeout: capMs }),
      );
      assertRpcError(error, -32602, 'invalid_arguments');
      assert.equal(
        upstream
          .requests('tools/call', 'Bearer alice+session')
          .filter((m) => Number((m.params as { arguments?: { amount?: unknown } }).arguments?.amount) > 100).length,
        0,
      );
    });
  });
});
