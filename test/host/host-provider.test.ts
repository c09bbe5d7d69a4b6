// schemavalProvider behind the MCP SDK's synchronous jsonSchemaValidator hook.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createMcpHandler, Server as ModernServer } from '@modelcontextprotocol/server';
import { schemavalProvider } from '../../src/host/node.ts';
import { startFixture } from '../helpers/mcp-fixture.ts';

describe('schemavalProvider', () => {
  it('validates with schemaval messages and caches compiled schemas by content', () => {
    const provider = schemavalProvider();
    const check = provider.getValidator<{ n: number }>({
      type: 'object',
      properties: { n: { type: 'integer', maximum: 3 } },
      required: ['n'],
    });
    assert.deepEqual(check({ n: 2 }), { valid: true, data: { n: 2 }, errorMessage: undefined });
    assert.deepEqual(check({ n: 9 }), { valid: false, data: undefined, errorMessage: '$.n: got 9, want at most 3' });
    const again = provider.getValidator({ required: ['n'], properties: { n: { maximum: 3, type: 'integer' } }, type: 'object' });
    assert.deepEqual(again({}), { valid: false, data: undefined, errorMessage: '$: missing required property "n"' });
  });

  it('rejects everything against a refused schema, naming the refusal', () => {
    const check = schemavalProvider().getValidator({ $ref: 'https://example.com/s.json' });
    const result = check('anything');
    assert.equal(result.valid, false);
    assert.match(result.errorMessage ?? '', /^schema refused \(remote_ref\): #\/\$ref/);
  });

  it('is a drop-in for the SDK client: structuredContent is checked with it', async () => {
    const client = new Client({ name: 'c', version: '1.0.0' }, { jsonSchemaValidator: schemavalProvider() });
    const fixture = await startFixture({ client });
    try {
      await client.listTools();
      assert.deepEqual((await client.callTool({ name: 'weather', arguments: { reply: 'good' } })).structuredContent, { temperature: 21 });
      await assert.rejects(client.callTool({ name: 'weather', arguments: { reply: 'bad' } }), /\$\.temperature: got string, want number/);
    } finally {
      await fixture.close();
    }
  });

  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`is a drop-in for the SDK v2 client (${revision}): structuredContent is checked with it`, async () => {
      const weather = {
        name: 'weather',
        inputSchema: { type: 'object', properties: { reply: { type: 'string' } } },
        outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
      };
      const handler = createMcpHandler(() => {
        const server = new ModernServer({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', async () => ({ tools: [weather] as never }));
        server.setRequestHandler('tools/call', async (request) => {
          const temperature = (request.params.arguments as { reply?: string } | undefined)?.reply === 'bad' ? 'hot' : 21;
          return { content: [], structuredContent: { temperature } };
        });
        return server;
      });
      const client = new ModernClient(
        { name: 'c', version: '1.0.0' },
        {
          jsonSchemaValidator: schemavalProvider(),
          versionNegotiation: { mode: revision === '2026-07-28' ? { pin: revision } : 'legacy' },
        },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), {
          fetch: ((input: RequestInfo | URL, init?: RequestInit) => handler.fetch(new Request(input, init))) as typeof fetch,
        }),
      );
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
        await client.listTools();
        assert.deepEqual((await client.callTool({ name: 'weather', arguments: { reply: 'good' } })).structuredContent, { temperature: 21 });
        await assert.rejects(client.callTool({ name: 'weather', arguments: { reply: 'bad' } }), /\$\.temperature: got string, want number/);
      } finally {
        await client.close();
        await handler.close();
      }
    });
  }
});
