// End to end in real workerd: a real SDK Client → the gateway under `wrangler dev` → a real MCP server on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { createUpstream, type Upstream } from '../../../test/helpers/http-upstream.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

describe('gateway under wrangler dev', () => {
  let upstream: Upstream;
  let dev: WranglerDev;
  let client: Client;
  let answer: () => unknown = () => ({ action: 'cancel' });

  before(async () => {
    upstream = createUpstream();
    const upstreamUrl = await upstream.listen();
    dev = await startWranglerDev({ UPSTREAM_MCP_URL: upstreamUrl, OUTPUT_POLICY: 'enforce' });
    client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => answer() as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`)));
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await dev?.stop();
    await upstream?.close();
  });

  it('serves the filtered tool list', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo', 'weather', 'ask'],
    );
  });

  it('answers an invalid call itself: the upstream never receives it', async () => {
    const error = await client.callTool({ name: 'echo', arguments: { text: false } }).then(
      () => assert.fail('expected -32602'),
      (e: McpError) => e,
    );
    assert.equal(error.code, -32602);
    assert.match(error.message, /\$\.text: got boolean, want string/);
    assert.equal(upstream.seen.calls.length, 0);
  });

  it('forwards a valid call', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'through workerd' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'through workerd' }]);
    assert.equal(upstream.seen.calls.length, 1);
  });

  it('validates an elicitation answer before the upstream sees it (session state in a Durable Object)', async () => {
    answer = () => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: -1.5 } });
    await client.callTool({ name: 'ask', arguments: { form: 'profile' } });
    answer = () => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } });
    await client.callTool({ name: 'ask', arguments: { form: 'profile' } });
    const [refused, accepted] = upstream.seen.elicitations as { error?: { code: number; message: string } }[];
    assert.equal(refused?.error?.code, -32602);
    assert.match(refused?.error?.message ?? '', /\$\.age: got -1\.5, want integer|\$\.age: got number, want integer/);
    assert.deepEqual(accepted, { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', newsletter: true, color: 'green' } });
  });
});
