// The MCP gateway in process: a real SDK Client → the gateway → a real SDK Server over Streamable HTTP.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, type McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { createEngine } from '../../../src/engine/index.ts';
import { unknownToolMessage } from '../../../src/mcp/index.ts';
import { createUpstream, type Upstream } from '../../../test/helpers/http-upstream.ts';
import { createMcpGateway, type McpGatewayOptions } from '../../src/gateway/mcp-gateway.ts';
import { createMemorySessionStores } from '../../src/state/session-store.ts';

let upstream: Upstream | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await upstream?.close();
  client = upstream = undefined;
});

async function connect(options: Partial<McpGatewayOptions> = {}, answer?: (params: Record<string, unknown>) => unknown, list?: Tool[]) {
  upstream = createUpstream(list === undefined ? {} : { list });
  const events: { kind: string; code: string; tool?: string; message?: string }[] = [];
  const gateway = createMcpGateway({
    engine: createEngine(),
    upstreamUrl: 'http://upstream.test/mcp',
    sessions: createMemorySessionStores(),
    outputPolicy: 'warn',
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => (upstream as Upstream).handle(new Request(input, init))) as typeof fetch,
    onEvent: (e) => events.push(e),
    ...options,
  });
  client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params as Record<string, unknown>) as never);
  const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch,
  });
  await client.connect(transport);
  return { client, events, seen: upstream.seen };
}

const rejected = (promise: Promise<unknown>): Promise<McpError> =>
  promise.then(
    () => assert.fail('expected an error'),
    (error: McpError) => error,
  );

describe('MCP gateway', () => {
  it('refuses a tools/call notification (no id, so nothing could check its answer) and never forwards it', async () => {
    const own = createUpstream();
    try {
      const gateway = createMcpGateway({
        engine: createEngine(),
        upstreamUrl: 'http://upstream.test/mcp',
        sessions: createMemorySessionStores(),
        outputPolicy: 'enforce',
        fetch: ((input: RequestInfo | URL, init?: RequestInit) => own.handle(new Request(input, init))) as typeof fetch,
      });
      const response = await gateway(
        new Request('http://gateway.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 1 } } }),
        }),
      );
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error?: { code: number; message: string } };
      assert.equal(body.error?.code, -32600);
      assert.match(body.error?.message ?? '', /must be a request/);
      assert.equal(own.seen.calls.length, 0);
    } finally {
      await own.close();
    }
  });

  it('answers a call missing 6,000 required fields at once with capped issues, and never forwards it (issue #9)', async () => {
    const names = Array.from({ length: 6000 }, (_, i) => `field_${i}`);
    const wide = {
      name: 'wide',
      inputSchema: { type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) },
    } as Tool;
    const { client, seen } = await connect({}, undefined, [wide]);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['wide'],
    );
    const error = await rejected(client.callTool({ name: 'wide', arguments: {} }));
    assert.equal(error.code, -32602);
    const issues = (error.data as { issues: { keyword: string; message: string }[] }).issues;
    assert.equal(issues.length, 101, 'maxIssues issues and one summary');
    assert.equal(issues[0]?.message, 'missing required property "field_0"');
    assert.equal(issues.at(-1)?.keyword, 'maxIssues');
    assert.equal(seen.calls.length, 0);
  });

  it('filters refused tools out of tools/list', async () => {
    const { client, events } = await connect();
    const { tools, _meta } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo', 'weather', 'ask'],
    );
    const refused = (_meta as Record<string, { name: string; code: string }[]>)['io.schemaval/refused'];
    assert.deepEqual(
      refused?.map((r) => [r.name, r.code]),
      [['remote', 'remote_ref']],
    );
    assert.deepEqual(events, [{ kind: 'tool_refused', tool: 'remote', code: 'remote_ref', message: events[0]?.message }]);
  });

  it('leaves malformed tools out of what a strict v1 Client lists, the refusal in _meta, and refuses a call to one', async () => {
    const list = [
      { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
      { name: 'no_schema' },
      { name: 'null_schema', inputSchema: null },
      { name: 'string_root', inputSchema: { type: 'string' } },
      { name: 'remote', inputSchema: { type: 'object', properties: { p: { $ref: 'https://example.com/p.json' } } } },
    ] as unknown as Tool[];
    const { client, seen } = await connect({}, undefined, list);
    // The SDK Client parses the list strictly (ListToolsResultSchema): one malformed tool relayed would fail it whole.
    const { tools, _meta } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['add'],
    );
    const refused = (_meta as Record<string, { name: string; code: string; message: string }[]>)['io.schemaval/refused'];
    assert.deepEqual(
      refused?.map((r) => [r.name, r.code]),
      [
        ['no_schema', 'invalid_tool'],
        ['null_schema', 'invalid_tool'],
        ['string_root', 'invalid_tool'],
        ['remote', 'remote_ref'],
      ],
    );
    assert.match(refused?.[0]?.message ?? '', /^tool "no_schema" has no "inputSchema"/);
    const call = await rejected(client.callTool({ name: 'string_root', arguments: {} }));
    assert.equal(call.code, -32602);
    assert.equal((call.data as { code?: string }).code, 'invalid_tool');
    assert.match(
      call.message,
      /Tool "string_root" is refused by schema policy \(invalid_tool: tool "string_root": "inputSchema" has "type": "string"/,
    );
    const unknown = await rejected(client.callTool({ name: 'nowhere', arguments: {} }));
    assert.equal(unknown.message, `MCP error -32602: ${unknownToolMessage('nowhere')}`);
    assert.equal((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).isError, undefined);
    assert.deepEqual(
      seen.calls.map((c) => c.name),
      ['add'],
    );
  });

  it('answers an invalid tools/call with -32602 and never forwards it', async () => {
    const { client, seen } = await connect();
    await client.listTools();
    const error = await rejected(client.callTool({ name: 'echo', arguments: { text: 1 } }));
    assert.equal(error.code, -32602);
    assert.match(error.message, /Invalid arguments for tool "echo": \$\.text: got integer, want string/);
    assert.deepEqual((error.data as { issues: unknown[] }).issues, [
      { path: '$.text', keyword: 'type', message: 'got integer, want string' },
    ]);
    assert.equal(seen.calls.length, 0);
  });

  it('lists the tools itself before checking a call to a tool it has not seen', async () => {
    const { client, seen } = await connect();
    const error = await rejected(client.callTool({ name: 'echo', arguments: {} }));
    assert.equal(error.code, -32602);
    assert.equal(seen.lists, 1);
    assert.equal(seen.calls.length, 0);
    const refused = await rejected(client.callTool({ name: 'remote', arguments: {} }));
    assert.match(refused.message, /refused by schema policy \(remote_ref/);
  });

  it('forwards a valid call and returns its result', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello' }]);
    assert.deepEqual(seen.calls, [{ name: 'echo', arguments: { text: 'hello' } }]);
  });

  it("applies the output policy: 'enforce' turns a mismatching result into -32602", async () => {
    const { client } = await connect({ outputPolicy: 'enforce' });
    await client.listTools();
    const error = await rejected(client.callTool({ name: 'weather', arguments: { reply: 'bad' } }));
    assert.match(error.message, /\$\.temperature: got string, want number/);
    assert.deepEqual((await client.callTool({ name: 'weather', arguments: { reply: 'good' } })).structuredContent, { temperature: 21 });
  });

  it("'warn' relays the mismatching result and reports it", async () => {
    const { client, events } = await connect();
    await client.listTools();
    // client.request, not callTool: the plain SDK client would check the output itself.
    const result = await client.request(
      { method: 'tools/call', params: { name: 'weather', arguments: { reply: 'bad' } } },
      CallToolResultSchema,
    );
    assert.deepEqual(result.structuredContent, { temperature: 'hot' });
    assert.ok(events.some((e) => e.kind === 'output_mismatch' && e.code === 'structured_content_invalid'));
  });

  it('validates the answer to an upstream elicitation before forwarding it', async () => {
    const { client, seen } = await connect({}, () => ({ action: 'accept', content: { name: 'Ada', email: 'nope' } }));
    await client.callTool({ name: 'ask', arguments: { form: 'profile' } });
    const [failed] = seen.elicitations as { error?: { code: number; message: string } }[];
    assert.equal(failed?.error?.code, -32602);
    assert.match(failed?.error?.message ?? '', /\$\.email: "nope" is not a valid email/);
  });

  it('forwards a valid answer with the defaults filled in', async () => {
    const { client, seen } = await connect({}, () => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } }));
    await client.callTool({ name: 'ask', arguments: { form: 'profile' } });
    assert.deepEqual(seen.elicitations, [
      { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', newsletter: true, color: 'green' } },
    ]);
  });

  it('refuses an elicitation schema outside the spec subset to the upstream, without asking the user', async () => {
    let asked = 0;
    const { client, seen } = await connect({}, () => {
      asked++;
      return { action: 'cancel' };
    });
    await client.callTool({ name: 'ask', arguments: { form: 'empty-enum' } });
    assert.equal(asked, 0);
    const [failed] = seen.elicitations as { error?: { code: number; message: string } }[];
    assert.equal(failed?.error?.code, -32602);
    assert.match(failed?.error?.message ?? '', /enum must be a non-empty array/);
  });

  it('says so when no upstream is configured', async () => {
    const gateway = createMcpGateway({
      engine: createEngine(),
      upstreamUrl: '',
      sessions: createMemorySessionStores(),
      outputPolicy: 'warn',
    });
    const response = await gateway(new Request('http://x/mcp', { method: 'POST', body: '{}' }));
    assert.equal(response.status, 503);
  });

  it('rejects malformed JSON and batches before anything is forwarded', async () => {
    let forwarded = 0;
    const gateway = createMcpGateway({
      engine: createEngine(),
      upstreamUrl: 'http://upstream.test/mcp',
      sessions: createMemorySessionStores(),
      outputPolicy: 'warn',
      fetch: (async () => {
        forwarded++;
        return new Response('{}');
      }) as typeof fetch,
    });
    const json = { 'content-type': 'application/json' };
    const malformed = await gateway(new Request('http://x/mcp', { method: 'POST', headers: json, body: '{"jsonrpc":' }));
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error.code, -32700);
    const batch = await gateway(
      new Request('http://x/mcp', { method: 'POST', headers: json, body: '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]' }),
    );
    assert.equal(batch.status, 400);
    assert.equal(forwarded, 0);
  });
});
