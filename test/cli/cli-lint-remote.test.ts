// `schemaval lint --url` / `--stdio`: the CLI as an MCP client of real servers (server-everything and
// server-filesystem over stdio, the fixture server over Streamable HTTP on 127.0.0.1), and one line when it cannot.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { fetchTools } from '../../src/cli/fetch-tools.ts';
import { main } from '../../src/cli/main.ts';
import { splitCommand } from '../../src/cli/split-command.ts';
import { createUpstream, type Upstream } from '../helpers/http-upstream.ts';
import { tools as fixtureTools } from '../helpers/mcp-fixture.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const resolve = createRequire(import.meta.url).resolve;
const everything = resolve('@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const node = JSON.stringify(process.execPath);

async function lint(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo({});
  const code = await main(['lint', ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe('schemaval lint --stdio', () => {
  it('lists every tool of server-everything, accepted, and exits 0', async () => {
    const { code, out, err } = await lint(['--stdio', `${node} ${JSON.stringify(everything)} stdio`]);
    assert.equal(code, 0, err);
    for (const name of ['echo', 'get-sum', 'get-structured-content', 'trigger-elicitation-request']) {
      assert.match(out, new RegExp(`^accepted {2}${name}$`, 'm'));
    }
    const summary = /^(\d+) tools: (\d+) accepted, 0 refused/m.exec(out);
    assert.ok(summary && Number(summary[1]) >= 10 && summary[1] === summary[2], out);
    assert.equal(err, '', 'the server stderr is not echoed');
  });

  it('lints server-filesystem with its --json document', async () => {
    const root = mkdtempSync(join(tmpdir(), 'schemaval-lint-fs-'));
    try {
      const { code, out } = await lint(['--json', '--stdio', `${node} ${JSON.stringify(filesystem)} ${JSON.stringify(root)}`]);
      assert.equal(code, 0, out);
      const { tools } = JSON.parse(out) as { tools: { name: string; status: string; fingerprint: string }[] };
      const names = tools.map((tool) => tool.name);
      for (const name of ['read_text_file', 'write_file', 'edit_file', 'list_allowed_directories']) assert.ok(names.includes(name), name);
      for (const tool of tools) {
        assert.equal(tool.status, 'accepted', tool.name);
        assert.match(tool.fingerprint, /^[0-9a-f]{64}$/);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says in one line that the command exited, with its exit code and last error line, and exits 2', async () => {
    const { code, out, err } = await lint(['--stdio', `${node} -e 'console.error("Error: no config"); process.exit(3)'`]);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.match(err, /^schemaval: server command ".*" exited \(code 3\) before answering; its stderr: Error: no config\n$/);
  });

  it('says a command that does not exist cannot start (--json: connect_failed)', async () => {
    const { code, out, err } = await lint(['--json', '--stdio', 'schemaval-no-such-command --flag']);
    assert.equal(code, 2);
    assert.equal(err, '');
    assert.deepEqual(JSON.parse(out), {
      error: { code: 'connect_failed', message: 'cannot start server command "schemaval-no-such-command --flag": no such command' },
    });
  });

  it('gives up after --timeout when the command never answers', async () => {
    const { code, err } = await lint(['--timeout', '300', '--stdio', `${node} -e 'setInterval(() => {}, 1000)'`]);
    assert.equal(code, 2);
    assert.match(err, /^schemaval: no answer from server command ".*" within 300 ms \(initialize\)\n$/);
  });
});

describe('schemaval lint --url', () => {
  let upstream: Upstream;
  let served: ServedHandler;
  let html: ServedHandler;
  let url: string;

  before(async () => {
    // The fixture's four tools, one per tools/list page; `remote` is refused (remote_ref). Needs a bearer token.
    upstream = createUpstream({ pageSize: 1, json: true });
    served = await serveFetchHandler(async (request) =>
      request.headers.get('authorization') === 'Bearer t0ken' ? upstream.handle(request) : new Response('who are you?', { status: 401 }),
    );
    url = `${served.origin}/mcp`;
    html = await serveFetchHandler(async () => new Response('<!doctype html><p>hello</p>', { headers: { 'content-type': 'text/html' } }));
  });

  after(async () => {
    await served.close();
    await html.close();
    await upstream.close();
  });

  it('follows every tools/list page, prints the refused tool with its reason and exits 1', async () => {
    const lists = upstream.seen.lists;
    const { code, out, err } = await lint(['--url', url, '--header', 'Authorization: Bearer t0ken']);
    assert.equal(code, 1, err);
    assert.equal(upstream.seen.lists - lists, fixtureTools.length, 'one request per page');
    assert.match(out, /^accepted {2}echo$/m);
    assert.match(out, /^refused {3}remote\n {10}remote_ref: inputSchema: #\/properties\/profile\/\$ref/m);
    assert.match(out, /^4 tools: 3 accepted, 1 refused$/m);
  });

  it('prints the same --json document as lint of a file holding the same tools', async () => {
    const remote = await lint(['--json', '--url', url, '--header', 'Authorization: Bearer t0ken']);
    const io = memoryIo({ 'tools.json': JSON.stringify({ tools: fixtureTools }) });
    const fileCode = await main(['lint', '--json', 'tools.json'], io);
    assert.equal(remote.code, fileCode);
    assert.deepEqual(JSON.parse(remote.out), JSON.parse(io.out()));
    assert.equal(remote.out, io.out());
  });

  it('reports the HTTP status when the server refuses the request', async () => {
    const { code, err } = await lint(['--url', url]);
    assert.equal(code, 2);
    assert.equal(err, `schemaval: cannot connect to ${url}: HTTP 401 Unauthorized\n`);
  });

  it('says in one line that nothing listens at the URL, and exits 2', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}/mcp`;
    const { code, out, err } = await lint(['--url', dead]);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.equal(err, `schemaval: cannot connect to ${dead}: connection refused\n`);
    const json = await lint(['--json', '--url', dead]);
    assert.deepEqual(JSON.parse(json.out), { error: { code: 'connect_failed', message: `cannot connect to ${dead}: connection refused` } });
  });

  it('says a page that is not an MCP server is not one', async () => {
    const { code, err } = await lint(['--url', `${html.origin}/`]);
    assert.equal(code, 2);
    assert.equal(err, `schemaval: ${html.origin}/: Unexpected content type: text/html\n`);
  });

  it('stops following cursors after maxPages', async () => {
    await assert.rejects(
      fetchTools({ kind: 'url', url: new URL(url), headers: { Authorization: 'Bearer t0ken' } }, { timeoutMs: 10_000, maxPages: 2 }),
      (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'protocol_error');
        assert.equal(error.message, `${url}: its tools/list still has more after 2 pages`);
        return true;
      },
    );
  });

  it('refuses a URL that is not http(s) in one line (invalid_url)', async () => {
    const { code, err } = await lint(['--url', 'ftp://example.com/mcp']);
    assert.equal(code, 2);
    assert.equal(err, 'schemaval: "ftp://example.com/mcp" is not an http:// or https:// URL\n');
  });
});

describe('schemaval lint --url, a server of MCP 2026-07-28 only', () => {
  // Stateless, no initialize: `legacy: 'reject'` answers 2025-era requests with HTTP 400 and JSON-RPC -32022.
  const modernTools = [
    { name: 'define', inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } },
    { name: 'fetch_card', inputSchema: { type: 'object', properties: { card: { $ref: 'https://schemas.example.org/card.json' } } } },
  ];
  // Tools the v2 client's own wire check would reject, failing the whole listing: each gets a verdict instead.
  const malformedTools = [
    { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
    { name: 'no_schema' },
    { name: 'null_schema', inputSchema: null },
    { name: 'string_root', inputSchema: { type: 'string' } },
  ];
  const seen: { method: string; status: number; revision: unknown; session: string | null }[] = [];
  let served: ServedHandler;
  let malformed: ServedHandler;
  let other: ServedHandler;
  let url: string;

  before(async () => {
    const handler = createMcpHandler(
      () => {
        const server = new Server({ name: 'modern-only', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', async () => ({ tools: modernTools as never }));
        return server;
      },
      { legacy: 'reject' },
    );
    served = await serveFetchHandler(async (request) => {
      const body =
        request.method === 'POST'
          ? ((await request.clone().json()) as { method?: string; params?: { _meta?: Record<string, unknown> } })
          : {};
      const response = await handler.fetch(request);
      seen.push({
        method: body.method ?? request.method,
        status: response.status,
        revision: body.params?._meta?.['io.modelcontextprotocol/protocolVersion'],
        session: response.headers.get('mcp-session-id'),
      });
      return response;
    });
    url = `${served.origin}/mcp`;
    const malformedHandler = createMcpHandler(
      () => {
        const server = new Server({ name: 'modern-malformed', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', async () => ({ tools: malformedTools as never }));
        return server;
      },
      { legacy: 'reject' },
    );
    malformed = await serveFetchHandler((request) => malformedHandler.fetch(request));
    // A server of some later revision only: refuses 2025-11-25 the same way, but lists no revision lint speaks.
    other = await serveFetchHandler(
      async () =>
        new Response(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-03-01'] } },
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        ),
    );
  });

  after(async () => {
    await served.close();
    await malformed.close();
    await other.close();
  });

  it('is listed with the 2026-07-28 client after its initialize refusal: the refused tool, exit 1', async () => {
    seen.length = 0;
    const { code, out, err } = await lint(['--url', url]);
    assert.equal(code, 1, err);
    assert.equal(err, '');
    assert.equal(out.split('\n')[0], 'accepted  define');
    assert.match(out, /^refused {3}fetch_card\n {10}remote_ref: inputSchema: #\/properties\/card\/\$ref/m);
    assert.match(out, /^2 tools: 1 accepted, 1 refused$/m);
    assert.deepEqual(seen[0], { method: 'initialize', status: 400, revision: undefined, session: null });
    const list = seen.filter((s) => s.method === 'tools/list');
    assert.equal(list.length, 1);
    assert.deepEqual(list[0], { method: 'tools/list', status: 200, revision: '2026-07-28', session: null });
  });

  it('prints the same --json document as lint of a file holding the same tools', async () => {
    const remote = await lint(['--json', '--url', url]);
    const io = memoryIo({ 'tools.json': JSON.stringify({ tools: modernTools }) });
    const fileCode = await main(['lint', '--json', 'tools.json'], io);
    assert.equal(remote.code, 1);
    assert.equal(remote.code, fileCode);
    assert.equal(remote.out, io.out());
  });

  it('gives a malformed tool its own verdict (invalid_tool, exit 1), not a failed listing', async () => {
    const { code, out, err } = await lint(['--url', `${malformed.origin}/mcp`]);
    assert.equal(err, '');
    assert.equal(code, 1, out);
    assert.match(out, /^accepted {2}add$/m);
    for (const name of ['no_schema', 'null_schema', 'string_root']) {
      assert.match(out, new RegExp(`^refused {3}${name}\\n {10}invalid_tool: tool "${name}"`, 'm'));
    }
    assert.match(out, /^4 tools: 1 accepted, 3 refused$/m);
    assert.doesNotMatch(out, /invalid_type|expected/);
    const remote = await lint(['--json', '--url', `${malformed.origin}/mcp`]);
    const io = memoryIo({ 'tools.json': JSON.stringify({ tools: malformedTools }) });
    assert.equal(await main(['lint', '--json', 'tools.json'], io), 1);
    assert.equal(remote.out, io.out());
  });

  it('says in one line which revisions a server speaks when it is neither (protocol_error, exit 2)', async () => {
    const { code, out } = await lint(['--json', '--url', `${other.origin}/mcp`]);
    assert.equal(code, 2);
    assert.deepEqual(JSON.parse(out), {
      error: {
        code: 'protocol_error',
        message: `${other.origin}/mcp: it speaks MCP 2027-03-01; schemaval lint speaks 2025-11-25 and 2026-07-28`,
      },
    });
  });
});

describe('schemaval lint --url judges each tool under both revisions', () => {
  // 2025-11-25 requires an object `outputSchema` root; 2026-07-28 lifted that. Only `rows` differs between them.
  const tools = [
    { name: 'sum', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
    { name: 'rows', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: { type: 'string' } } },
  ];
  let legacy: Upstream;
  let legacyUrl: string;
  let modern: ServedHandler;

  before(async () => {
    legacy = createUpstream({ list: tools as never, json: true });
    legacyUrl = await legacy.listen();
    const handler = createMcpHandler(
      () => {
        const server = new Server({ name: 'modern-rows', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', async () => ({ tools: tools as never }));
        return server;
      },
      { legacy: 'reject' },
    );
    modern = await serveFetchHandler((request) => handler.fetch(request));
  });

  after(async () => {
    await legacy.close();
    await modern.close();
  });

  it('refuses a non-object outputSchema root over 2025-11-25 and says 2026-07-28 accepts it (exit 1)', async () => {
    const { code, out, err } = await lint(['--url', legacyUrl]);
    assert.equal(code, 1, err);
    assert.match(
      out,
      /^refused {3}rows\n {10}invalid_tool: tool "rows": "outputSchema" has "type": "array" at its root; MCP 2025-11-25 requires/m,
    );
    assert.match(out, /^ {10}under MCP 2026-07-28: accepted$/m);
    assert.match(out, /^2 tools: 1 accepted, 1 refused \(MCP 2025-11-25; under 2026-07-28: 2 accepted, 0 refused\)$/m);
    const json = JSON.parse((await lint(['--json', '--url', legacyUrl])).out) as { tools: { name: string; otherRevision?: unknown }[] };
    assert.deepEqual(json.tools[1]?.otherRevision, { revision: '2026-07-28', status: 'accepted' });
    assert.equal(json.tools[0]?.otherRevision, undefined);
  });

  it('accepts it over 2026-07-28 and names the 2025-11-25 refusal (exit 0)', async () => {
    const { code, out, err } = await lint(['--url', `${modern.origin}/mcp`]);
    assert.equal(code, 0, err);
    assert.match(
      out,
      /^accepted {2}rows\n {10}under MCP 2025-11-25: refused \(invalid_tool: tool "rows": "outputSchema" has "type": "array"/m,
    );
    assert.match(out, /^2 tools: 2 accepted, 0 refused \(MCP 2026-07-28; under 2025-11-25: 1 accepted, 1 refused\)$/m);
  });
});

describe('schemaval lint arguments', () => {
  it('takes exactly one source, and --header / --timeout only where they apply', async () => {
    const cases: [string[], RegExp][] = [
      [['tools.json', '--url', 'http://127.0.0.1/mcp'], /exactly one FILE/],
      [['--url', 'http://127.0.0.1/mcp', '--stdio', 'x'], /exactly one FILE/],
      [['--stdio', 'x', '--header', 'A: b'], /--header goes with --url/],
      [['tools.json', '--timeout', '100'], /--timeout goes with --url or --stdio/],
      [['--url', 'http://127.0.0.1/mcp', '--timeout', '1s'], /--timeout takes milliseconds/],
      [['--url', 'http://127.0.0.1/mcp', '--header', 'no colon'], /is not "Name: value"/],
      [['--stdio', '"unterminated'], /unterminated quote/],
      [['--stdio', '  '], /needs a command/],
    ];
    for (const [argv, pattern] of cases) {
      const { code, err } = await lint(argv);
      assert.equal(code, 2, argv.join(' '));
      assert.match(err, pattern, argv.join(' '));
      assert.match(err, /usage: schemaval lint/, argv.join(' '));
    }
  });

  it('splits "CMD ARGS" like a shell would, without running one', () => {
    assert.deepEqual(splitCommand(`node 'a b.js' "c \\"d\\"" e\\ f  $HOME`), ['node', 'a b.js', 'c "d"', 'e f', '$HOME']);
    assert.deepEqual(splitCommand(`x '' ""`), ['x', '', '']);
    assert.equal(splitCommand(`x 'y`), undefined);
    assert.equal(splitCommand('x \\'), undefined);
  });
});
