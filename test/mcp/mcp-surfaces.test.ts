// Issue 18: one fixture list through every surface that reads an MCP tool list — the host adapter (a real SDK v1
// Client), the /mcp gateway in process (a real SDK v1 Client behind it), `schemaval lint --url`, and the demo page's
// list function (its 2026-07-28 client, run from Node) — against one server on 127.0.0.1. Each surface must make
// the same decision for each tool (usable or not) with the same code and message, and a malformed tool must never
// take the other tools down with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { createMcpGateway } from '../../edge/src/gateway/mcp-gateway.ts';
import { createMemorySessionStores } from '../../edge/src/state/session-store.ts';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { main } from '../../src/cli/main.ts';
import { createEngine } from '../../src/engine/index.ts';
import { toolRefusal } from '../../src/engine/tools/compile-tool.ts';
import { createValidator } from '../../src/host/node.ts';
import { withSchemaValidation } from '../../src/host/with-schema-validation.ts';
import { maxToolListPages, refusedToolMessage, unknownToolMessage } from '../../src/mcp/index.ts';
import type { ToolVerdict } from '../../src/protocol/tool.ts';
import { describeConnectError } from '../../src/ui/connect.ts';
import { connectModern } from '../../src/ui/connect-modern.ts';
import { listAllTools } from '../../src/ui/list-tools.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const object = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } };
/** The fixture list, in the order the server sends it. */
const fixture: readonly unknown[] = [
  { name: 'add', inputSchema: object },
  { name: 'remote', inputSchema: { type: 'object', properties: { p: { $ref: 'https://example.com/p.json' } } } },
  { name: 'no_schema' },
  { name: 'null_schema', inputSchema: null },
  { name: 'string_root', inputSchema: { type: 'string' } },
  { name: 'bad\uD800name', inputSchema: object },
  { name: 'twice', inputSchema: object },
  { name: 'twice', inputSchema: { type: 'object' } },
  { name: 'output_root', inputSchema: object, outputSchema: { type: 'string' } },
];

/** One surface's decision on one tool. */
interface Decision {
  readonly name: string;
  readonly usable: boolean;
  readonly code?: string;
  readonly message?: string;
}

/** What every surface must decide, in the fixture's order, but for `output_root` (its row depends on the revision). */
const common: readonly Decision[] = [
  { name: 'add', usable: true },
  { name: 'remote', usable: false, code: 'remote_ref' },
  {
    name: 'no_schema',
    usable: false,
    code: 'invalid_tool',
    message: 'tool "no_schema" has no "inputSchema": MCP requires one, with "type": "object" at its root',
  },
  {
    name: 'null_schema',
    usable: false,
    code: 'invalid_tool',
    message: 'tool "null_schema": "inputSchema" is null, not a JSON Schema object with "type": "object"',
  },
  {
    name: 'string_root',
    usable: false,
    code: 'invalid_tool',
    message: 'tool "string_root": "inputSchema" has "type": "string" at its root; MCP requires "type": "object"',
  },
  { name: 'bad\uD800name', usable: false, code: 'invalid_tool' },
  {
    name: 'twice',
    usable: false,
    code: 'invalid_tool',
    message: 'tool name "twice" appears 2 times in this list: every definition of it is refused',
  },
  {
    name: 'twice',
    usable: false,
    code: 'invalid_tool',
    message: 'tool name "twice" appears 2 times in this list: every definition of it is refused',
  },
];

/**
 * A non-object `outputSchema` root: 2025-11-25 requires `"type": "object"` there, 2026-07-28 lifts it. The host,
 * the gateway and `lint --url` list through a 2025-11-25 client here, the page through its 2026-07-28 one.
 */
const outputRoot = {
  '2025-11-25': {
    name: 'output_root',
    usable: false,
    code: 'invalid_tool',
    message: 'tool "output_root": "outputSchema" has "type": "string" at its root; MCP 2025-11-25 requires "type": "object"',
  },
  '2026-07-28': { name: 'output_root', usable: true },
} as const satisfies Record<string, Decision>;

type Revision = keyof typeof outputRoot;
const expectedFor = (revision: Revision): readonly Decision[] => [...common, outputRoot[revision]];
/** The revision each surface lists in against this server. */
const surfaceRevision: Record<string, Revision> = { host: '2025-11-25', gateway: '2025-11-25', cli: '2025-11-25', page: '2026-07-28' };

/** The v2 SDK server wraps a non-object output root for a 2025-11-25 client; this one's list goes out as written. */
const wrappedOutputRoot = '{"type":"object","properties":{"result":{"type":"string"}},"required":["result"]}';
async function asWritten(response: Response): Promise<Response> {
  if (response.body === null || !(response.headers.get('content-type') ?? '').match(/json|event-stream/)) return response;
  const text = (await response.text()).replaceAll(wrappedOutputRoot, '{"type":"string"}');
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(text, { status: response.status, headers });
}

/** What a call to `string_root` is refused with, on every surface. */
const stringRoot = { code: 'invalid_tool', message: common[4]?.message ?? '' };

const decisionOf = (verdict: ToolVerdict): Decision => {
  const refusal = toolRefusal(verdict);
  return refusal === undefined
    ? { name: verdict.name, usable: true }
    : { name: verdict.name, usable: false, code: refusal.code, message: refusal.message };
};

/** In name order (a refused tool's place in a relayed list is not the server's), duplicates side by side. */
const sorted = (decisions: readonly Decision[]): Decision[] =>
  [...decisions].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));

const rejected = (promise: Promise<unknown>): Promise<McpError> =>
  promise.then(
    () => assert.fail('expected an error'),
    (error: McpError) => error,
  );

describe('one tool list, every MCP surface', () => {
  let served: ServedHandler;
  let url: string;
  const validator = createValidator({ mode: 'inline' });
  const decisions = new Map<string, Decision[]>();

  before(async () => {
    // The SDK's v2 server: 2025-11-25 (initialize, stateless) and 2026-07-28 alike, the tools exactly as given.
    const handler = createMcpHandler(() => {
      const server = new Server({ name: 'surfaces', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: fixture as never }));
      server.setRequestHandler('tools/call', async (request) => ({
        content: [{ type: 'text', text: `called ${request.params.name}` }],
      }));
      return server;
    });
    served = await serveFetchHandler(async (request) =>
      request.method === 'POST' ? await asWritten(await handler.fetch(request)) : await handler.fetch(request),
    );
    url = `${served.origin}/mcp`;
  });

  after(async () => {
    await validator.close();
    await served.close();
  });

  it('host adapter (SDK v1 Client): lists the usable tools, a verdict for every one', async () => {
    let verdicts: readonly ToolVerdict[] = [];
    const client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), {
      validator,
      onVerdicts: (summary) => {
        verdicts = summary.verdicts;
      },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['add'],
      );
      decisions.set('host', verdicts.map(decisionOf));
      const refused = await rejected(client.callTool({ name: 'string_root', arguments: {} }));
      assert.equal(refused.code, -32602);
      assert.equal(refused.message, `MCP error -32602: ${refusedToolMessage('string_root', stringRoot)}`);
      const unknown = await rejected(client.callTool({ name: 'nowhere', arguments: {} }));
      assert.equal(unknown.message, `MCP error -32602: ${unknownToolMessage('nowhere')}`);
    } finally {
      await client.close();
    }
  });

  it('gateway (a strict SDK v1 Client behind it): relays only the usable tools, the refused ones in _meta', async () => {
    const gateway = createMcpGateway({
      engine: createEngine(),
      upstreamUrl: url,
      sessions: createMemorySessionStores(),
      outputPolicy: 'warn',
    });
    const client = new Client({ name: 'behind-gateway', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
        fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch,
      }),
    );
    try {
      const { tools, _meta } = await client.listTools();
      const refused = (_meta as Record<string, { name: string; code: string; message: string }[]>)['io.schemaval/refused'] ?? [];
      decisions.set('gateway', [
        ...tools.map((tool): Decision => ({ name: tool.name, usable: true })),
        ...refused.map(({ name, code, message }): Decision => ({ name, usable: false, code, message })),
      ]);
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['add'],
      );
      const call = await rejected(client.callTool({ name: 'string_root', arguments: {} }));
      assert.equal(call.message, `MCP error -32602: ${refusedToolMessage('string_root', stringRoot)}`);
      const unknown = await rejected(client.callTool({ name: 'nowhere', arguments: {} }));
      assert.equal(unknown.message, `MCP error -32602: ${unknownToolMessage('nowhere')}`);
      assert.equal(
        ((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content as { text: string }[])[0]?.text,
        'called add',
      );
    } finally {
      await client.close();
    }
  });

  it('schemaval lint --url: a verdict per tool, exit 1, no zod dump', async () => {
    const io = memoryIo({});
    const code = await main(['lint', '--json', '--url', url], io);
    assert.equal(io.err(), '');
    assert.equal(code, 1, io.out());
    const { tools } = JSON.parse(io.out()) as { tools: ToolVerdict[] };
    decisions.set('cli', tools.map(decisionOf));
  });

  it("the page's list (its 2026-07-28 client, from Node): the usable tools listed, the others refused with their reason", async () => {
    let verdicts: ToolVerdict[] = [];
    const client = await connectModern(new URL(url), {
      url: new URL(url),
      validator,
      onWarning: () => undefined,
      onVerdicts: (summary) => {
        verdicts = [...verdicts, ...summary.verdicts];
      },
      elicit: async () => ({ action: 'decline' }),
    });
    try {
      const listing = await listAllTools(client);
      assert.deepEqual(
        listing.tools.map((tool: Tool) => tool.name),
        ['add', 'output_root'],
      );
      decisions.set('page', verdicts.map(decisionOf));
      await assert.rejects(client.callTool({ name: 'string_root', arguments: {} }), (error: Error & { data?: { code?: string } }) => {
        assert.equal(error.data?.code, 'invalid_tool');
        assert.equal(error.message, refusedToolMessage('string_root', stringRoot));
        return true;
      });
      await assert.rejects(client.callTool({ name: 'nowhere', arguments: {} }), { message: unknownToolMessage('nowhere') });
    } finally {
      await client.close();
    }
  });

  it('every surface decides every tool alike, by its revision: usable or not, code and message', () => {
    const surfaces = ['host', 'gateway', 'cli', 'page'].filter((surface) => decisions.has(surface));
    assert.equal(surfaces.length, 4, `surfaces that listed: ${surfaces.join(', ')}`);
    // Same revision, same decisions; across revisions only the output_root row differs.
    const byRevision = new Map<Revision, Decision[]>();
    for (const surface of surfaces) {
      const revision = surfaceRevision[surface] as Revision;
      const got = sorted(decisions.get(surface) ?? []);
      const reference = byRevision.get(revision);
      if (reference === undefined) byRevision.set(revision, got);
      else assert.deepEqual(got, reference, surface);
    }
    assert.deepEqual([...byRevision.keys()].sort(), ['2025-11-25', '2026-07-28']);
    for (const [revision, reference] of byRevision) {
      const want = expectedFor(revision);
      assert.equal(reference.length, want.length, revision);
      for (const row of sorted(want)) {
        const got = reference.find((d) => d.name === row.name && (row.message === undefined || d.message === row.message));
        assert.ok(got, `${revision}: no decision for ${JSON.stringify(row.name)}`);
        assert.equal(got.usable, row.usable, `${revision}: ${row.name}`);
        assert.equal(got.code, row.code, `${revision}: ${row.name}`);
        if (row.message !== undefined) assert.equal(got.message, row.message, `${revision}: ${row.name}`);
      }
    }
  });
});

describe("the page's words when a list cannot be read", () => {
  const zod = JSON.stringify(
    [
      {
        expected: 'object',
        code: 'invalid_type',
        path: ['tools', 1, 'inputSchema'],
        message: 'Invalid input: expected object, received undefined',
      },
    ],
    null,
    2,
  );

  it('says in one line that the answer is not valid MCP, never the zod dump', () => {
    const server = 'http://127.0.0.1:3001/mcp';
    assert.equal(describeConnectError(new Error(zod), server), `${server} sent an answer that is not valid MCP, so the page cannot use it`);
    assert.equal(
      describeConnectError(new Error(`Invalid result for tools/list: ${zod}`), ''),
      'the demo server sent a tools/list answer that is not valid MCP, so the page cannot use it',
    );
    assert.equal(describeConnectError(new Error('line one\n  line two'), ''), 'line one line two');
  });

  it('stops at the shared page bound, and at a repeated cursor, in one line', async () => {
    let pages = 0;
    const endless = { listTools: async () => ({ tools: [], nextCursor: `c${++pages}` }) };
    await assert.rejects(listAllTools(endless), { message: `The server's tools/list still has more after ${maxToolListPages} pages` });
    assert.equal(pages, maxToolListPages);
    const loop = { listTools: async () => ({ tools: [], nextCursor: 'same' }) };
    await assert.rejects(listAllTools(loop), { message: "The server's tools/list repeats the cursor of page 2" });
  });
});
