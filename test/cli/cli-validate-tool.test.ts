// `schemaval validate --url URL | --stdio "CMD" --tool NAME` (issue 22): one call's arguments against the inputSchema
// of a live server's tool. Real SDK servers: the fixture server over Streamable HTTP on 127.0.0.1 (four tools, one
// per tools/list page, behind a bearer token) and server-everything over stdio.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { type CliDeps, main } from '../../src/cli/main.ts';
import { createValidator } from '../../src/host/node.ts';
import { createUpstream, type Upstream } from '../helpers/http-upstream.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const everythingCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(everything)} stdio`;

/** In-thread validation keeps these tests quick; the first test runs the CLI's own worker thread. */
const inline: CliDeps = { createValidator: (options) => createValidator({ ...options, mode: 'inline' }) };

async function validate(
  argv: string[],
  files: Record<string, string> = {},
  deps: CliDeps = inline,
): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo(files);
  const code = await main(['validate', ...argv], io, deps);
  return { code, out: io.out(), err: io.err() };
}

describe('schemaval validate --url --tool', () => {
  let upstream: Upstream;
  let served: ServedHandler;
  let url: string;
  let auth: string[];

  before(async () => {
    // The fixture's tools (echo, remote, weather, ask), one per page: `remote` is refused (remote_ref).
    upstream = createUpstream({ pageSize: 1, json: true });
    served = await serveFetchHandler(async (request) =>
      request.headers.get('authorization') === 'Bearer t0ken' ? upstream.handle(request) : new Response('who are you?', { status: 401 }),
    );
    url = `${served.origin}/mcp`;
    auth = ['--url', url, '--header', 'Authorization: Bearer t0ken'];
  });

  after(async () => {
    await served.close();
    await upstream.close();
  });

  it('prints "valid" and exits 0 for arguments the tool accepts, after listing every page (in the worker thread)', async () => {
    const lists = upstream.seen.lists;
    const { code, out, err } = await validate([...auth, '--tool', 'weather', '--args', '{"reply":"good"}'], {}, {});
    assert.equal(code, 0, err);
    assert.equal(out, 'valid\n');
    assert.equal(err, '');
    assert.equal(upstream.seen.lists - lists, 4, 'every tools/list page');
    assert.equal(upstream.seen.calls.length, 0, 'the tool is never called');
    const invalid = await validate([...auth, '--tool', 'weather', '--args', '{"reply":"hot"}'], {}, {});
    assert.equal(invalid.code, 1, invalid.err);
    assert.equal(invalid.out, '$.reply: got "hot", want one of "good", "bad", "missing", "error"\n');
  });

  it('prints one "$.path: message" line per issue and exits 1 for arguments it does not', async () => {
    const { code, out, err } = await validate([...auth, '--tool', 'echo', '--args', '{"times":0,"text":7}']);
    assert.equal(code, 1, err);
    assert.deepEqual(out.trimEnd().split('\n'), ['$.text: got integer, want string', '$.times: got 0, want at least 1']);
    const missing = await validate([...auth, '--tool', 'echo', '--args', '{}']);
    assert.equal(missing.code, 1);
    assert.equal(missing.out, '$: missing required property "text"\n');
  });

  it('reads the arguments from standard input by default, or from --instance FILE', async () => {
    const stdin = await validate([...auth, '--tool', 'echo'], { '-': '{"text":"hi","times":2}' });
    assert.equal(stdin.code, 0, stdin.err);
    assert.equal(stdin.out, 'valid\n');
    const file = await validate([...auth, '--tool', 'echo', '--instance', 'call.json'], { 'call.json': '{"times":1.5}' });
    assert.equal(file.code, 1);
    assert.deepEqual(file.out.trimEnd().split('\n'), ['$: missing required property "text"', '$.times: got number, want integer']);
  });

  it('prints the refusal code and reason of a refused tool and exits 2, validating nothing', async () => {
    const { code, out, err } = await validate([...auth, '--tool', 'remote', '--args', '{}']);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.match(
      err,
      /^tool "remote" refused \(remote_ref\): inputSchema: #\/properties\/profile\/\$ref: "https:\/\/example.com\/profile.json" points outside this schema/,
    );
    assert.equal(err.split('\n').length, 2, 'one line');
  });

  it('names the tool and a few that exist, nearest first, in one line when it is not listed (unknown_tool, exit 2)', async () => {
    const { code, out, err } = await validate([...auth, '--tool', 'ecco', '--args', '{}']);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.equal(err, `schemaval: no tool "ecco" in the tools/list of ${url}; its 4 tools: echo, ask, remote, weather\n`);
  });

  it('answers with --json as validate --schema does: the outcome, or the error, one document on stdout', async () => {
    const valid = await validate(['--json', ...auth, '--tool', 'echo', '--args', '{"text":"x"}']);
    assert.equal(valid.code, 0);
    assert.equal(valid.out, '{"status":"valid"}\n');
    const invalid = await validate(['--json', ...auth, '--tool', 'echo', '--args', '{"text":1}']);
    assert.equal(invalid.code, 1);
    assert.deepEqual(JSON.parse(invalid.out), {
      status: 'invalid',
      issues: [{ path: '$.text', keyword: 'type', message: 'got integer, want string' }],
    });
    const refused = await validate(['--json', ...auth, '--tool', 'remote', '--args', '{}']);
    assert.equal(refused.code, 2);
    assert.equal(refused.err, '');
    const document = JSON.parse(refused.out) as { status: string; refusal: { code: string; message: string } };
    assert.equal(document.status, 'refused');
    assert.equal(document.refusal.code, 'remote_ref');
    assert.match(document.refusal.message, /^inputSchema: #\/properties\/profile\/\$ref/);
    const unknown = await validate(['--json', ...auth, '--tool', 'nope', '--args', '{}']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.err, '');
    assert.equal(JSON.parse(unknown.out).error.code, 'unknown_tool');
    const unauthorized = await validate(['--json', '--url', url, '--tool', 'echo', '--args', '{}']);
    assert.equal(unauthorized.code, 2);
    assert.deepEqual(JSON.parse(unauthorized.out), {
      error: { code: 'connect_failed', message: `cannot connect to ${url}: HTTP 401 Unauthorized` },
    });
  });

  it('says arguments that are not JSON are not, before asking the server (invalid_json, exit 2)', async () => {
    const lists = upstream.seen.lists;
    const inline = await validate([...auth, '--tool', 'echo', '--args', '{"text": tru}']);
    assert.equal(inline.code, 2);
    assert.match(inline.err, /^schemaval: --args:1:10: not valid JSON: /);
    const stdin = await validate([...auth, '--tool', 'echo'], { '-': '{"text":"a","text":"a"}' });
    assert.equal(stdin.code, 2);
    assert.equal(stdin.err, 'schemaval: <stdin>:1:13: not valid JSON: duplicate object key "text"\n');
    assert.equal(upstream.seen.lists, lists, 'no server was asked');
  });

  it('holds the arguments to the policy flags: over --max-instance-bytes is invalid at $', async () => {
    const { code, out } = await validate([...auth, '--tool', 'echo', '--max-instance-bytes', '10', '--args', '{"text":"a long text"}']);
    assert.equal(code, 1);
    assert.equal(out, '$: over 10 bytes of JSON\n');
    const tight = await validate([...auth, '--tool', 'echo', '--max-schema-bytes', '20', '--args', '{"text":"x"}']);
    assert.equal(tight.code, 2);
    assert.match(tight.err, /^tool "echo" refused \(too_large\): inputSchema: schema is over 20 bytes of JSON\n/);
  });

  it('shows its progress on standard error under --progress, stdout unchanged', async () => {
    const { code, out, err } = await validate(['--progress', ...auth, '--tool', 'echo', '--args', '{"text":"x"}']);
    assert.equal(code, 0, err);
    assert.equal(out, 'valid\n');
    assert.deepEqual(
      err
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/ \(\d+\.\d s\)$/, '')),
      [
        `schemaval: connecting to ${url}`,
        'schemaval: page 1: 1 tool so far',
        'schemaval: page 2: 2 tools so far',
        'schemaval: page 3: 3 tools so far',
        'schemaval: page 4: 4 tools so far',
        'schemaval: listed 4 tools in 4 pages',
      ],
    );
  });
});

describe('schemaval validate --url --tool judges the tool as lint does', () => {
  // Over MCP 2025-11-25 a non-object outputSchema root is refused (the whole tool, for every call); a name listed
  // twice is refused in both places. Judged on the whole list, as the gateway and lint judge it.
  const tools = [
    { name: 'rows', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } }, outputSchema: { type: 'array' } },
    { name: 'twice', inputSchema: { type: 'object' } },
    { name: 'twice', inputSchema: { type: 'object' } },
    { name: 'noted', inputSchema: { type: 'object', properties: { id: { type: 'string', required: true } } } },
  ];
  let upstream: Upstream;
  let url: string;

  before(async () => {
    upstream = createUpstream({ list: tools as never, json: true });
    url = await upstream.listen();
  });

  after(() => upstream.close());

  it('refuses a tool whose outputSchema the revision refuses, and a name listed twice (invalid_tool)', async () => {
    const rows = await validate(['--url', url, '--tool', 'rows', '--args', '{"n":1}']);
    assert.equal(rows.code, 2);
    assert.match(rows.err, /^tool "rows" refused \(invalid_tool\): tool "rows": "outputSchema" has "type": "array" at its root/);
    const twice = await validate(['--url', url, '--tool', 'twice', '--args', '{}']);
    assert.equal(twice.code, 2);
    assert.match(twice.err, /^tool "twice" refused \(invalid_tool\): /);
  });

  it('prints schema warnings on standard error and still validates', async () => {
    const { code, out, err } = await validate(['--url', url, '--tool', 'noted', '--args', '{"id":"a"}']);
    assert.equal(code, 0, err);
    assert.equal(out, 'valid\n');
    assert.match(err, /^warning draft3_required: inputSchema: #\/properties\/id: /);
    const json = await validate(['--json', '--url', url, '--tool', 'noted', '--args', '{"id":"a"}']);
    assert.equal(json.err, '', 'with --json, nothing but the document');
  });
});

describe('schemaval validate --stdio --tool', () => {
  it('validates arguments against a tool of server-everything: valid, then invalid with paths', async () => {
    const valid = await validate(['--stdio', everythingCommand, '--tool', 'get-sum', '--args', '{"a":1,"b":2}']);
    assert.equal(valid.code, 0, valid.err);
    assert.equal(valid.out, 'valid\n');
    assert.equal(valid.err, '', 'the server stderr is not echoed');
    const invalid = await validate(['--json', '--stdio', everythingCommand, '--tool', 'get-sum'], { '-': '{"a":"one"}' });
    assert.equal(invalid.code, 1, invalid.err);
    const { status, issues } = JSON.parse(invalid.out) as { status: string; issues: { path: string; keyword: string }[] };
    assert.equal(status, 'invalid');
    assert.deepEqual(
      issues.map((issue) => `${issue.path} ${issue.keyword}`),
      ['$ required', '$.a type'],
    );
  });

  it('says in one line that the tool is not listed, naming what the server lists', async () => {
    const { code, err } = await validate(['--stdio', everythingCommand, '--tool', 'get-sun', '--args', '{}']);
    assert.equal(code, 2);
    assert.match(
      err,
      /^schemaval: no tool "get-sun" in the tools\/list of server command ".*"; its \d+ tools: get-sum, [\w, -]+, and \d+ more\n$/,
    );
  });

  it('says the command exited, as lint does', async () => {
    const { code, err } = await validate([
      '--stdio',
      `${JSON.stringify(process.execPath)} -e "process.exit(3)"`,
      '--tool',
      'x',
      '--args',
      '{}',
    ]);
    assert.equal(code, 2);
    assert.match(err, /^schemaval: server command ".*" exited \(code 3\) before answering\n$/);
  });
});

describe('schemaval validate arguments', () => {
  it('takes one of --schema, --url and --stdio, and --tool, --args and the server flags only where they apply', async () => {
    const cases: [string[], RegExp][] = [
      [[], /validate needs --schema FILE, or --url URL or --stdio "CMD ARGS" with --tool NAME/],
      [['--schema', 's.json', '--url', 'http://127.0.0.1/mcp', '--tool', 't'], /takes one of --schema FILE, --url URL and --stdio/],
      [['--url', 'http://127.0.0.1/mcp', '--stdio', 'x', '--tool', 't'], /takes one of --schema FILE, --url URL and --stdio/],
      [['--url', 'http://127.0.0.1/mcp'], /--url needs --tool NAME/],
      [['--stdio', 'node server.js'], /--stdio needs --tool NAME/],
      [['--schema', 's.json', '--tool', 't'], /--tool goes with --url or --stdio/],
      [['--schema', 's.json', '--args', '{}'], /--args goes with --tool/],
      [['--url', 'http://127.0.0.1/mcp', '--tool', 't', '--args', '{}', '--instance', 'a.json'], /give one/],
      [['--stdio', 'x', '--tool', 't', '--header', 'A: b'], /--header goes with --url/],
      [['--schema', 's.json', '--timeout', '100'], /--timeout goes with --url or --stdio/],
      [['--schema', 's.json', '--progress'], /--progress goes with --url or --stdio/],
      [['--url', 'http://127.0.0.1/mcp', '--tool', 't', '--request-timeout', '0'], /--request-timeout takes milliseconds/],
    ];
    for (const [argv, pattern] of cases) {
      const { code, err } = await validate(argv, { 's.json': '{}' });
      assert.equal(code, 2, argv.join(' '));
      assert.match(err, pattern, argv.join(' '));
      assert.match(err, /usage: schemaval validate/, argv.join(' '));
    }
  });

  it('refuses a URL that is not http(s) in one line (invalid_url)', async () => {
    const { code, err } = await validate(['--url', 'ftp://example.com/mcp', '--tool', 't', '--args', '{}']);
    assert.equal(code, 2);
    assert.equal(err, 'schemaval: "ftp://example.com/mcp" is not an http:// or https:// URL\n');
  });
});
