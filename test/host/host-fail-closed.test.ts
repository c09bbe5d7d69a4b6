// The host adapter fails closed on what it does not know (issue 17, item 3), on a real SDK Client and Server over
// the in-memory transport: duplicated and malformed tool names are refused tools (warned, never thrown), an
// elicitation in a mode it does not know is refused to the server, and an answer may only hold what the form
// asked for. The v2 client's MRTR elicitations get the same mode check.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, Server as ServerV2 } from '@modelcontextprotocol/server';
import { withElicitationValidation } from '../../src/host/elicitation-guard.ts';
import { createValidator, type SchemaValidationWarning, withSchemaValidation } from '../../src/host/node.ts';
import { createMemoryVerdictCache } from '../../src/host/verdict-cache.ts';

const form = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] };

interface Host {
  readonly client: Client;
  readonly warnings: SchemaValidationWarning[];
  /** Every tools/call the server received, and what each elicitation request of the server ended with. */
  readonly calls: string[];
  readonly elicitations: unknown[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A server listing `list` (a page per entry of `pages`, when given) whose `ask` tool sends `elicitation/create`
 * with the given params as they are, and a client wrapped by the adapter.
 */
async function host(list: Tool[], options: { elicit?: Record<string, unknown>; pages?: number[] } = {}): Promise<Host> {
  const calls: string[] = [];
  const elicitations: unknown[] = [];
  const server = new Server({ name: 'upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cuts = options.pages ?? [list.length];
    const page = Number(request.params?.cursor ?? 0);
    const start = cuts.slice(0, page).reduce((a, b) => a + b, 0);
    const tools = list.slice(start, start + (cuts[page] ?? 0));
    return { tools, ...(page + 1 < cuts.length ? { nextCursor: String(page + 1) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    calls.push(request.params.name);
    if (request.params.name === 'ask') {
      try {
        const params = options.elicit ?? { mode: 'form', message: 'Who?', requestedSchema: form };
        elicitations.push(await server.request({ method: 'elicitation/create', params }, ElicitResultSchema));
      } catch (error) {
        const { code, message, data } = error as McpError;
        elicitations.push({ error: { code, message, data } });
      }
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });
  const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} } } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const warnings: SchemaValidationWarning[] = [];
  const wrapped = withSchemaValidation(client, {
    validator: createValidator({ mode: 'inline' }),
    cache: createMemoryVerdictCache(),
    onWarning: (warning) => warnings.push(warning),
  });
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client: wrapped, warnings, calls, elicitations };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  assert.fail('expected a rejection');
}

const object = { type: 'object' } as const;
const ask: Tool = { name: 'ask', inputSchema: object };

describe('host adapter: tool names', () => {
  it('refuses every definition of a duplicated name: left out, warned invalid_tool with the count, calls not sent', async () => {
    const { client, warnings, calls } = await host([
      { name: 'search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'fetch', inputSchema: object },
      { name: 'search', inputSchema: object, description: 'a second, looser definition' },
    ]);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['fetch'],
    );
    const message = 'tool name "search" appears 2 times in this list: every definition of it is refused';
    assert.deepEqual(
      warnings.map((w) => [w.tool, w.code, w.message]),
      [
        ['search', 'invalid_tool', message],
        ['search', 'invalid_tool', message],
      ],
    );
    const error = await rejection(client.callTool({ name: 'search', arguments: { q: 1 } }));
    assert.equal(error.code, -32602);
    assert.equal((error.data as { code?: string }).code, 'invalid_tool');
    assert.match(error.message, /Tool "search" is refused by schema policy \(invalid_tool: tool name "search" appears 2 times/);
    assert.deepEqual(calls, []);
  });

  it('refuses a duplicate even when one definition was listed, accepted and cached alone before', async () => {
    const list: Tool[] = [{ name: 'search', inputSchema: object }];
    const { client, calls } = await host(list);
    assert.equal((await client.listTools()).tools.length, 1);
    list.push({ name: 'search', inputSchema: { type: 'object', additionalProperties: true } });
    assert.deepEqual((await client.listTools()).tools, []);
    assert.equal(((await rejection(client.callTool({ name: 'search', arguments: {} }))).data as { code?: string }).code, 'invalid_tool');
    assert.deepEqual(calls, []);
  });

  it('refuses a name repeated on a later page of the same listing, and the call to it; a page read again is no duplicate', async () => {
    const { client, warnings, calls } = await host(
      [
        { name: 'search', inputSchema: object },
        { name: 'fetch', inputSchema: object },
        { name: 'search', inputSchema: object },
      ],
      { pages: [2, 1] },
    );
    const first = await client.listTools();
    assert.deepEqual(
      first.tools.map((tool) => tool.name),
      ['search', 'fetch'],
    );
    assert.deepEqual((await client.listTools({ cursor: first.nextCursor })).tools, []);
    assert.deepEqual(
      warnings.map((w) => [w.tool, w.code, w.message]),
      [['search', 'invalid_tool', 'tool name "search" appears 2 times in this list: every definition of it is refused']],
    );
    assert.equal(((await rejection(client.callTool({ name: 'search', arguments: {} }))).data as { code?: string }).code, 'invalid_tool');
    assert.deepEqual(calls, []);

    const again = await host(
      [
        { name: 'a', inputSchema: object },
        { name: 'b', inputSchema: object },
      ],
      { pages: [1, 1] },
    );
    const head = await again.client.listTools();
    await again.client.listTools({ cursor: head.nextCursor });
    assert.deepEqual(
      (await again.client.listTools({ cursor: head.nextCursor })).tools.map((tool) => tool.name),
      ['b'],
    );
    assert.deepEqual(again.warnings, []);
  });

  it('refuses a name with a lone surrogate (warned, never UNKNOWN_FINGERPRINT) and an empty name', async () => {
    const { client, warnings, calls } = await host([
      { name: 'lone\udc00', inputSchema: object },
      { name: '', inputSchema: object },
      { name: 'fine', inputSchema: object },
    ]);
    assert.deepEqual(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['fine'],
    );
    assert.deepEqual(
      warnings.map((w) => [w.tool, w.code, w.message]),
      [
        ['lone\udc00', 'invalid_tool', 'tool name "lone\\udc00" holds a lone UTF-16 surrogate: not well-formed Unicode'],
        ['', 'invalid_tool', 'tools[1] has an empty "name"'],
      ],
    );
    for (const name of ['lone\udc00', '']) {
      const error = await rejection(client.callTool({ name, arguments: {} }));
      assert.equal(error.code, -32602);
      assert.equal((error.data as { code?: string }).code, 'invalid_tool');
    }
    await client.callTool({ name: 'fine', arguments: {} });
    assert.deepEqual(calls, ['fine']);
  });
});

describe('host adapter: elicitation', () => {
  /** Runs `ask` with the server's elicitation params and the user's answer; counts how often the user was asked. */
  async function elicit(params: Record<string, unknown>, answer: Record<string, unknown> = { action: 'accept', content: { name: 'Ada' } }) {
    const context = await host([ask], { elicit: params });
    let asked = 0;
    context.client.setRequestHandler(ElicitRequestSchema, () => {
      asked++;
      return answer as never;
    });
    await context.client.callTool({ name: 'ask', arguments: {} });
    return { asked, seen: context.elicitations[0] as { error?: { code: number; message: string; data?: { code?: string } } } };
  }

  for (const mode of ['FORM', 'Form', 'URL', ' form', '']) {
    it(`refuses mode ${JSON.stringify(mode)} to the server with -32602 naming it, without asking the user`, async () => {
      const { asked, seen } = await elicit({ mode, message: 'Who?', requestedSchema: form });
      assert.equal(asked, 0);
      assert.equal(seen.error?.code, -32602, JSON.stringify(seen));
      assert.equal(seen.error?.data?.code, 'unknown_mode');
      assert.ok(seen.error?.message.includes(`unknown elicitation mode ${JSON.stringify(mode)}`), seen.error?.message);
    });
  }

  it('still checks a form without a mode, and passes URL mode', async () => {
    const checked = await elicit({ message: 'Who?', requestedSchema: form }, { action: 'accept', content: { name: '' } });
    assert.equal(checked.seen.error?.data?.code, 'invalid_answer');
    const url = await elicit(
      { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
      { action: 'accept' },
    );
    assert.equal(url.asked, 1);
    assert.deepEqual(url.seen, { action: 'accept' });
  });

  it('refuses an answer with a key the form never asked for, naming the key, and relays nothing', async () => {
    const { asked, seen } = await elicit(
      { mode: 'form', message: 'Who?', requestedSchema: form },
      { action: 'accept', content: { name: 'Ada', isAdmin: true } },
    );
    assert.equal(asked, 1);
    assert.equal(seen.error?.code, -32602);
    assert.equal(seen.error?.data?.code, 'invalid_answer');
    assert.match(seen.error?.message ?? '', /\$\.isAdmin: property not asked for by the form/);
  });
});

describe('v2 client (MRTR): elicitation modes', () => {
  it('refuses an input request in an unknown mode before the person is asked, and sends no retry', async () => {
    const received: unknown[] = [];
    const handler = createMcpHandler(() => {
      const server = new ServerV2({ name: 'mrtr', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'ask', inputSchema: object }] as never }));
      server.setRequestHandler('tools/call', async (_request, ctx) => {
        received.push(ctx.mcpReq.inputResponses);
        return {
          resultType: 'input_required',
          inputRequests: { who: { method: 'elicitation/create', params: { mode: 'FORM', message: 'Who?', requestedSchema: form } } },
        } as never;
      });
      return server;
    });
    const client = new ClientV2(
      { name: 'host', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { name: 'Ada' } } as never;
    });
    withElicitationValidation(client, { validator: createValidator({ mode: 'inline' }) });
    const transport = new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), {
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => handler.fetch(new Request(input, init))) as typeof fetch,
    });
    await client.connect(transport);
    closers.push(async () => {
      await client.close();
      await handler.close();
    });
    const error = await client.callTool({ name: 'ask', arguments: {} }).then(
      () => assert.fail('expected the call to fail'),
      (e: Error & { data?: { code?: string } }) => e,
    );
    assert.equal(error.data?.code, 'unknown_mode');
    assert.match(error.message, /unknown elicitation mode "FORM"/);
    assert.equal(asked, 0);
    assert.deepEqual(received, [undefined], 'the first round only: no retry');
  });
});
