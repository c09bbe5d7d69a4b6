// Issue 18: a server whose list holds one good tool, one refused tool and one the MCP spec calls malformed. The
// real SDK clients (v1, and the v2 client on both revisions) wrapped by withSchemaValidation: the good tool stays
// usable, the others are left out with a warning naming each, and no SDK parse error takes the listing down.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, Server as ModernServer } from '@modelcontextprotocol/server';
import { createInlineValidator } from '../../src/host/inline-validator.ts';
import { type SchemaValidationWarning, withSchemaValidation } from '../../src/host/with-schema-validation.ts';
import { maxToolListPages, maxToolsPerListing, refusedToolMessage, unknownToolMessage } from '../../src/mcp/index.ts';

const add = {
  name: 'add',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};
const remote = { name: 'remote', inputSchema: { type: 'object', properties: { p: { $ref: 'https://example.com/p.json' } } } };

/** The three shapes of a malformed definition the issue names, each with the reason the warning must give. */
const malformed: [string, Record<string, unknown>, string][] = [
  ['no inputSchema', { name: 'bare' }, 'tool "bare" has no "inputSchema"'],
  ['inputSchema: null', { name: 'nul', inputSchema: null }, 'tool "nul": "inputSchema" is null'],
  ['a string root', { name: 'str', inputSchema: { type: 'string' } }, 'tool "str": "inputSchema" has "type": "string" at its root'],
];

type Seen = { calls: string[]; lists: number };

/** A v1 low-level Server that lists `tools` as raw JSON (no SDK check on what it sends), paged `pageSize` at a time. */
async function legacy(tools: unknown[], pageSize = tools.length) {
  const seen: Seen = { calls: [], lists: 0 };
  const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    seen.lists++;
    const start = Number(request.params?.cursor ?? 0);
    const next = start + pageSize;
    return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) } as never;
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    seen.calls.push(request.params.name);
    const { a, b } = (request.params.arguments ?? {}) as { a: number; b: number };
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const warnings: SchemaValidationWarning[] = [];
  const client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), {
    validator: createInlineValidator(),
    onWarning: (warning) => warnings.push(warning),
  });
  await client.connect(clientSide);
  return { client, seen, warnings, close: () => client.close() };
}

/** A v2 Server behind `createMcpHandler`, reached by the v2 client pinned to `revision`. */
async function modern(tools: unknown[], revision: '2025-11-25' | '2026-07-28') {
  const seen: Seen = { calls: [], lists: 0 };
  const handler = createMcpHandler(() => {
    const server = new ModernServer({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => {
      seen.lists++;
      return { tools: tools as never };
    });
    server.setRequestHandler('tools/call', async (request) => {
      seen.calls.push(request.params.name);
      const { a, b } = (request.params.arguments ?? {}) as { a: number; b: number };
      return { content: [{ type: 'text', text: String(a + b) }] };
    });
    return server;
  });
  const warnings: SchemaValidationWarning[] = [];
  const client = withSchemaValidation(
    new ModernClient(
      { name: 'host', version: '1.0.0' },
      { versionNegotiation: { mode: revision === '2026-07-28' ? { pin: revision } : 'legacy' } },
    ),
    { validator: createInlineValidator(), onWarning: (warning) => warnings.push(warning) },
  );
  const transport = new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => handler.fetch(new Request(input, init))) as typeof fetch,
  });
  await client.connect(transport);
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  return {
    client,
    seen,
    warnings,
    close: async () => {
      await client.close();
      await handler.close();
    },
  };
}

let open: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const setups = [
  ['the v1 SDK Client', (tools: unknown[]) => legacy(tools)],
  ['the v2 client on 2025-11-25', (tools: unknown[]) => modern(tools, '2025-11-25')],
  ['the v2 client on 2026-07-28', (tools: unknown[]) => modern(tools, '2026-07-28')],
] as const;

for (const [label, connect] of setups) {
  describe(`host adapter, a list with malformed tools: ${label}`, () => {
    for (const [shape, tool, reason] of malformed) {
      it(`lists add, leaves out the refused tool and one with ${shape}, each warned by name`, async () => {
        const fixture = await connect([add, remote, tool]);
        open = fixture;
        const { tools } = await fixture.client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          ['add'],
        );
        const byTool = new Map(fixture.warnings.map((w) => [w.tool, w]));
        assert.equal(byTool.get('remote')?.code, 'remote_ref');
        const left = byTool.get(String(tool.name));
        assert.equal(left?.code, 'invalid_tool');
        assert.ok(left?.message.startsWith(reason), left?.message);
        assert.doesNotMatch(JSON.stringify(fixture.warnings), /ZodError|invalid_type|"expected"/);
      });
    }

    it('answers an invalid add call with -32602 and sends nothing; a valid one goes through', async () => {
      const fixture = await connect([add, remote, ...malformed.map(([, tool]) => tool)]);
      open = fixture;
      await fixture.client.listTools();
      const error = await fixture.client.callTool({ name: 'add', arguments: { a: 1, b: 'two' } }).then(
        () => assert.fail('expected -32602'),
        (e: { code?: unknown; message: string; data?: { code?: string } }) => e,
      );
      assert.equal(error.code, -32602);
      assert.equal(error.data?.code, 'invalid_arguments');
      assert.match(error.message, /\$\.b: got string, want number/);
      assert.deepEqual(fixture.seen.calls, []);
      const result = await fixture.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      assert.deepEqual(result.content, [{ type: 'text', text: '3' }]);
      assert.deepEqual(fixture.seen.calls, ['add']);
    });

    it('refuses a call to a left-out tool, naming the code, and sends nothing', async () => {
      const fixture = await connect([add, { name: 'str', inputSchema: { type: 'string' } }]);
      open = fixture;
      const error = await fixture.client.callTool({ name: 'str', arguments: {} }).then(
        () => assert.fail('expected -32602'),
        (e: { code?: unknown; message: string; data?: { code?: string } }) => e,
      );
      assert.equal(error.code, -32602);
      assert.equal(error.data?.code, 'invalid_tool');
      assert.equal(
        error.message.replace(/^MCP error -32602: /, ''),
        refusedToolMessage('str', {
          code: 'invalid_tool',
          message: 'tool "str": "inputSchema" has "type": "string" at its root; MCP requires "type": "object"',
        }),
      );
      assert.deepEqual(fixture.seen.calls, []);
    });
  });
}

describe('host adapter, a listing read leniently (v1)', () => {
  it('leaves out an entry that is not a tool, and an outputSchema 2025-11-25 forbids, keeping the rest', async () => {
    const rows = { name: 'rows', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } };
    const fixture = await legacy([42, add, rows]);
    open = fixture;
    const { tools } = await fixture.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['add'],
    );
    assert.deepEqual(
      fixture.warnings.map((w) => [w.tool, w.code, w.message]),
      [
        ['tools[0]', 'invalid_tool', 'tools[0] is not a tool: want an object with a string "name"'],
        ['rows', 'invalid_tool', 'tool "rows": "outputSchema" has "type": "array" at its root; MCP 2025-11-25 requires "type": "object"'],
      ],
    );
  });

  it('follows the pages of a cold call up to the one limit, then refuses the call as unlisted', async () => {
    // A tool on page 3 is found; a server paging past the limit is read maxToolListPages times and no more.
    const paged = [add, { name: 'bare' }, { name: 'late', inputSchema: { type: 'object' } }];
    const fixture = await legacy(paged, 1);
    open = fixture;
    await fixture.client.callTool({ name: 'late', arguments: {} });
    assert.deepEqual(fixture.seen.calls, ['late']);
    assert.equal(fixture.seen.lists, 3);
    assert.equal(maxToolListPages, 100);
    assert.equal(maxToolsPerListing, 10_000);

    const endless = Array.from({ length: maxToolListPages + 5 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const far = await legacy(endless, 1);
    try {
      const error = await far.client.callTool({ name: `t${maxToolListPages + 2}`, arguments: {} }).then(
        () => assert.fail('expected -32602'),
        (e: { code?: unknown; message: string }) => e,
      );
      assert.equal(error.code, -32602);
      assert.equal(error.message.replace(/^MCP error -32602: /, ''), unknownToolMessage(`t${maxToolListPages + 2}`));
      assert.equal(far.seen.lists, maxToolListPages);
      assert.deepEqual(far.seen.calls, []);
    } finally {
      await far.close();
    }
  });

  it('fails a result whose envelope is not a tool list with its own message, not a zod dump', async () => {
    const seen = { lists: 0 };
    const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      seen.lists++;
      return { tools: 'none' } as never;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), { validator: createInlineValidator() });
    await client.connect(clientSide);
    open = client;
    await assert.rejects(client.listTools(), { message: 'schemaval: the tools/list result has no "tools" array' });
    assert.equal(seen.lists, 1);
  });
});

describe('host adapter, the outputSchema root follows the negotiated revision (v2 client)', () => {
  // On 2025-11-25 the v2 server wraps such a root itself (SEP-2106); the v1 test above covers the older rule.
  it('lists a tool whose outputSchema root is an array on 2026-07-28, which allows it', async () => {
    const rows = { name: 'rows', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: { type: 'string' } } };
    const fixture = await modern([add, rows], '2026-07-28');
    open = fixture;
    const { tools } = await fixture.client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, (t.outputSchema as { type?: unknown } | undefined)?.type]),
      [
        ['add', undefined],
        ['rows', 'array'],
      ],
    );
    assert.deepEqual(fixture.warnings, []);
  });
});
