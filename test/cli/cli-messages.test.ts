// What the CLI says when asked for help or when something is wrong: help texts, the version, file and JSON
// errors in words, and the same errors as {"error":{"code","message"}} with --json (always exit 2).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { jsonErrorMessage, lineAndColumn } from '../../src/cli/json-error-message.ts';
import { main } from '../../src/cli/main.ts';
import { packageVersion } from '../../src/cli/package-version.ts';
import { createValidator, type Validator } from '../../src/host/node.ts';
import { type MemoryIo, memoryIo } from '../helpers/memory-io.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const schema = '{"type":"object","properties":{"n":{"type":"integer"}}}';
const inline = { createValidator: () => createValidator({ mode: 'inline' }) };

/** memoryIo whose reads fail with a file-system error code. */
function failingIo(code: string): MemoryIo {
  const io = memoryIo({});
  return { ...io, readText: async (file) => Promise.reject(Object.assign(new Error(`${code}: ${file}`), { code })) };
}

/** Runs the CLI with --json and returns the one error document it printed (nothing may go to stderr). */
async function jsonError(argv: string[], io: MemoryIo, deps = {}): Promise<{ code: string; message: string }> {
  assert.equal(await main(argv, io, deps), 2, argv.join(' '));
  assert.equal(io.err(), '', 'with --json, errors go to standard output only');
  const lines = io.out().trimEnd().split('\n');
  assert.equal(lines.length, 1, io.out());
  const document = JSON.parse(lines[0] as string) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(document), ['error']);
  assert.deepEqual(Object.keys(document.error), ['code', 'message']);
  return document.error;
}

describe('schemaval help', () => {
  it('prints the overview for --help, -h and help, naming both commands and the --json error shape', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const io = memoryIo({});
      assert.equal(await main(argv, io), 0, argv.join(' '));
      assert.match(io.out(), /^ {2}schemaval lint \[--json\] FILE\|-$/m);
      assert.match(io.out(), /^ {2}schemaval validate \[--json\] --schema FILE \[--instance FILE\|-\]$/m);
      assert.match(io.out(), /\{"error":\{"code","message"\}\}/);
      assert.equal(io.err(), '');
    }
  });

  it('prints each command its own help with options and exit codes, before checking other arguments', async () => {
    const cases: [string[], RegExp, RegExp][] = [
      [['lint', '--help'], /^usage: schemaval lint \[--json\] FILE\|-$/m, /^ {2}1 {2}some tool refused$/m],
      [['lint', '-h', '--bogus'], /^usage: schemaval lint/m, /--json/],
      [['help', 'lint'], /^usage: schemaval lint/m, /tools\/list result/],
      [['validate', '--help'], /^usage: schemaval validate \[--json\] --schema FILE/m, /^ {2}--instance FILE\|- {3}/m],
      [['validate', '--schema', 's.json', '-h'], /^usage: schemaval validate/m, /^ {2}1 {2}invalid/m],
      [['help', 'validate'], /^usage: schemaval validate/m, /--schema FILE {7}the JSON Schema \(required\)/],
    ];
    for (const [argv, synopsis, detail] of cases) {
      const io = memoryIo({});
      assert.equal(await main(argv, io), 0, argv.join(' '));
      assert.match(io.out(), synopsis, argv.join(' '));
      assert.match(io.out(), detail, argv.join(' '));
    }
    const lint = memoryIo({});
    await main(['lint', '--help'], lint);
    assert.doesNotMatch(lint.out(), /--schema/, 'lint help is about lint only');
  });

  it('treats -h after -- as a file name, not a request for help', async () => {
    const io = memoryIo({});
    assert.equal(await main(['lint', '--', '-h'], io), 2);
    assert.equal(io.err(), 'schemaval: cannot read "-h": no such file\n');
  });

  it('refuses help on an unknown topic with exit 2', async () => {
    const io = memoryIo({});
    assert.equal(await main(['help', 'frobnicate'], io), 2);
    assert.match(io.err(), /^schemaval: no help for "frobnicate"\nusage:\n/);
  });
});

describe('schemaval --version', () => {
  it("prints package.json's version", async () => {
    const io = memoryIo({});
    assert.equal(await main(['--version'], io), 0);
    assert.equal(io.out(), `schemaval ${manifest.version}\n`);
    assert.equal(packageVersion(), manifest.version);
  });

  it('uses the build-time constant in a bundle, and finds the package root without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schemaval-version-'));
    try {
      const entry = fileURLToPath(new URL('../../src/cli/package-version.ts', import.meta.url));
      const bundle = (outfile: string, define: Record<string, string>) =>
        build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', define, logLevel: 'silent' });
      await bundle(join(dir, 'defined.js'), { __SCHEMAVAL_VERSION__: JSON.stringify('9.8.7') });
      await bundle(join(dir, 'plain.js'), {});
      const defined = (await import(pathToFileURL(join(dir, 'defined.js')).href)) as typeof import('../../src/cli/package-version.ts');
      const plain = (await import(pathToFileURL(join(dir, 'plain.js')).href)) as typeof import('../../src/cli/package-version.ts');
      assert.equal(defined.packageVersion(), '9.8.7');
      assert.equal(plain.packageVersion(), 'unknown', 'no package.json named schemaval above a temporary folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schemaval file errors', () => {
  it('says in words why a file cannot be read', async () => {
    const cases: [string, string, string][] = [
      ['ENOENT', 'file_not_found', 'cannot read "nope.json": no such file'],
      ['EACCES', 'file_unreadable', 'cannot read "nope.json": permission denied'],
      ['EPERM', 'file_unreadable', 'cannot read "nope.json": permission denied'],
      ['EISDIR', 'file_unreadable', 'cannot read "nope.json": is a directory'],
      ['EWEIRD', 'file_unreadable', 'cannot read "nope.json": EWEIRD'],
    ];
    for (const [errno, code, message] of cases) {
      for (const argv of [
        ['lint', 'nope.json'],
        ['validate', '--schema', 'nope.json'],
      ]) {
        const io = failingIo(errno);
        assert.equal(await main(argv, io), 2, `${errno} ${argv.join(' ')}`);
        assert.equal(io.err(), `schemaval: ${message}\n`, 'no usage text after an input error');
        assert.equal(io.out(), '');
        assert.deepEqual(await jsonError([...argv, '--json'], failingIo(errno)), { code, message });
      }
    }
  });

  it('names standard input and a missing --instance file', async () => {
    assert.deepEqual(await jsonError(['lint', '--json', '-'], failingIo('EIO')), {
      code: 'file_unreadable',
      message: 'cannot read standard input: input/output error',
    });
    const io = memoryIo({ 's.json': schema });
    assert.deepEqual(await jsonError(['validate', '--json', '--schema', 's.json', '--instance', 'i.json'], io, inline), {
      code: 'file_not_found',
      message: 'cannot read "i.json": no such file',
    });
  });
});

describe('schemaval JSON errors', () => {
  it('gives line and column of a syntax error in a schema, a tools file and an instance', async () => {
    const broken = '{\n  "type": "object",\n  "properties": {"a": tru}\n}\n';
    const expected = "not valid JSON: object value expected after ':'";
    const schemaIo = memoryIo({ 'schema.json': broken });
    assert.equal(await main(['validate', '--schema', 'schema.json'], schemaIo), 2);
    assert.equal(schemaIo.err(), `schemaval: schema.json:3:23: ${expected}\n`);
    const lintIo = memoryIo({ '-': broken });
    assert.equal(await main(['lint', '-'], lintIo), 2);
    assert.equal(lintIo.err(), `schemaval: <stdin>:3:23: ${expected}\n`);
    const instanceIo = memoryIo({ 's.json': schema, 'i.json': '{"n":\r\n  1,\r\n  "m": }' });
    assert.equal(await main(['validate', '--schema', 's.json', '--instance', 'i.json'], instanceIo, inline), 2);
    assert.equal(instanceIo.err(), `schemaval: i.json:3:8: not valid JSON: object value expected after ':'\n`);
  });

  it('names a duplicate key and where it repeats, in a schema or an instance', async () => {
    const schemaIo = memoryIo({ 's.json': '{\n  "type": "object",\n  "type": "object"\n}' });
    assert.equal(await main(['validate', '--schema', 's.json'], schemaIo), 2);
    assert.equal(schemaIo.err(), 'schemaval: s.json:3:3: not valid JSON: duplicate object key "type"\n');
    const instance = await jsonError(
      ['validate', '--json', '--schema', 's.json'],
      memoryIo({ 's.json': schema, '-': '{"n": 1, "n": 2}' }),
      inline,
    );
    assert.deepEqual(instance, { code: 'invalid_json', message: "<stdin>:1:11: not valid JSON: duplicate key 'n' encountered" });
  });

  it('reports JSON errors as invalid_json with --json', async () => {
    const error = await jsonError(['lint', '--json', 't.json'], memoryIo({ 't.json': '{"tools": [1, 2,]}' }));
    assert.deepEqual(error, { code: 'invalid_json', message: "t.json:1:17: not valid JSON: array item expected but got ']'" });
  });

  it('counts a column in characters and escapes control characters it quotes', () => {
    assert.deepEqual(lineAndColumn('{"😀": x}', 7), { line: 1, column: 7 }, 'the emoji is two UTF-16 units, one column');
    assert.deepEqual(lineAndColumn('a\rb\r\nc\nd', 5), { line: 3, column: 1 }, 'CR LF is one line break');
    assert.deepEqual(lineAndColumn('a\rb\r\nc\nd', 7), { line: 4, column: 1 });
    assert.equal(
      jsonErrorMessage('x.json', '["\u0001"]', "Invalid character '\u0001' at position 2"),
      "x.json:1:3: not valid JSON: invalid character '\\u0001'",
    );
    assert.equal(jsonErrorMessage('-', '', 'something odd'), '<stdin>: not valid JSON: something odd');
  });
});

describe('schemaval option errors', () => {
  it('says in one line of its own which option is unknown, missing its value or given one, exit 2', async () => {
    const cases: [string[], string][] = [
      [['lint', '--verbose', 'tools.json'], 'unknown option --verbose (see schemaval lint --help)'],
      [['lint', 'tools.json', '-x'], 'unknown option -x (see schemaval lint --help)'],
      [['lint', '--url'], 'option --url needs a value (see schemaval lint --help)'],
      [['lint', '--stdio', '--timeout', '5'], 'option --stdio needs a value (see schemaval lint --help)'],
      [['lint', '--json=yes', 'tools.json'], 'option --json takes no value (see schemaval lint --help)'],
      [['validate', '--schema', 's.json', '--bogus'], 'unknown option --bogus (see schemaval validate --help)'],
      [['validate', '--schema'], 'option --schema needs a value (see schemaval validate --help)'],
    ];
    for (const [argv, message] of cases) {
      const io = memoryIo({ 'tools.json': '[]', 's.json': schema });
      assert.equal(await main(argv, io), 2, argv.join(' '));
      assert.equal(io.err(), `schemaval: ${message}\n`, argv.join(' '));
      assert.equal(io.out(), '');
      const json = await jsonError([...argv, '--json'], memoryIo({ 'tools.json': '[]', 's.json': schema }));
      assert.deepEqual(json, { code: 'usage', message }, `${argv.join(' ')} --json`);
    }
  });
});

describe('schemaval --json errors', () => {
  it('reports usage errors as code "usage", with no usage text', async () => {
    for (const argv of [['lint', '--json'], ['lint', '--json', '--bogus', 'x'], ['validate', '--json'], ['--json']]) {
      const error = await jsonError(argv, memoryIo({}));
      assert.equal(error.code, 'usage', argv.join(' '));
      assert.doesNotMatch(error.message, /usage:/);
    }
  });

  it('reports a tools file of the wrong shape or over the bounds with its own code', async () => {
    assert.equal((await jsonError(['lint', '--json', '-'], memoryIo({ '-': '{"tool":[]}' }))).code, 'invalid_tools_file');
    const deep = `${'['.repeat(1001)}${']'.repeat(1001)}`;
    const error = await jsonError(['lint', '--json', '-'], memoryIo({ '-': deep }));
    assert.deepEqual(error, { code: 'too_deep', message: 'tools file from standard input is nesting deeper than 1000' });
  });

  it("passes the validator's operational failures through by code, in words without --json", async () => {
    const failing = (code: string, message: string) => ({
      createValidator: () =>
        ({
          compile: async () => ({ status: 'accepted', fingerprint: 'f', warnings: [] }),
          validateJson: async () => Promise.reject(Object.assign(new Error(message), { code })),
          compileTools: async () => Promise.reject(Object.assign(new Error(message), { code })),
          // lint starts the worker early by asking for stats; a worker that cannot start fails that too.
          stats: async () => Promise.reject(Object.assign(new Error(message), { code })),
          close: async () => {},
        }) as unknown as Validator,
    });
    const files = { 's.json': schema, '-': '{}', 't.json': '[{"name":"a","inputSchema":{"type":"object"}}]' };
    const timeout = await jsonError(['validate', '--json', '--schema', 's.json'], memoryIo(files), failing('TIMEOUT', 'slow'));
    assert.deepEqual(timeout, { code: 'TIMEOUT', message: 'validation ran past the 250 ms time budget and was stopped' });
    const crashed = await jsonError(
      ['lint', '--json', 't.json'],
      memoryIo(files),
      failing('WORKER_CRASHED', 'the validation worker crashed'),
    );
    assert.deepEqual(crashed, { code: 'WORKER_CRASHED', message: 'the validation worker crashed' });
    const text = memoryIo(files);
    assert.equal(await main(['lint', 't.json'], text, failing('WORKER_CRASHED', 'the validation worker crashed')), 2);
    assert.equal(text.err(), 'schemaval: WORKER_CRASHED: the validation worker crashed\n');
  });

  it('keeps a refused schema as the {"status":"refused"} result, not an error', async () => {
    const io = memoryIo({ 's.json': '{"$ref":"https://example.com/s.json"}', '-': '{}' });
    assert.equal(await main(['validate', '--json', '--schema', 's.json'], io, inline), 2);
    assert.deepEqual(Object.keys(JSON.parse(io.out())), ['status', 'refusal']);
    assert.equal(JSON.parse(io.out()).refusal.code, 'remote_ref');
  });
});
