// The real executable, as a user runs it: a child process with pipes and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../../scripts/build.mjs';

const bin = fileURLToPath(new URL('../../bin/schemaval.js', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8', timeout: 60_000 });

// bin/schemaval.js runs the built CLI: bundle it first (esbuild only, about a second).
before(() => buildCli());

describe('bin/schemaval.js', () => {
  it('validates standard input against a schema file and exits 1 with issue lines', () => {
    const result = run(['validate', '--schema', 'examples/weather-input.schema.json'], '{"city":"Oslo","days":0}');
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stdout, '$.days: got 0, want at least 1\n');
  });

  it('lints the example tools and exits 1 with the summary line', () => {
    const result = run(['lint', 'examples/tools.json']);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stdout, /^6 tools: 3 accepted, 3 refused, 1 warning$/m);
  });

  it('lints a server over --stdio through the bundle (the SDK client in a lazy chunk), and says in one line when it cannot', () => {
    const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
    const result = run(['lint', '--stdio', `${JSON.stringify(process.execPath)} ${JSON.stringify(server)} stdio`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^accepted {2}echo$/m);
    assert.match(result.stdout, /^\d+ tools: \d+ accepted, 0 refused$/m);
    const exited = run(['lint', '--stdio', `${JSON.stringify(process.execPath)} -e "process.exit(4)"`]);
    assert.equal(exited.status, 2);
    assert.match(exited.stderr, /^schemaval: server command ".*" exited \(code 4\) before answering\n$/);
  });

  it('exits 2 with usage for a bad invocation', () => {
    const result = run(['lint']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /usage:/);
  });
});

describe('bin/schemaval.js messages', () => {
  it('prints the help and the version of package.json, exiting 0', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const versionRun = run(['--version']);
    assert.equal(versionRun.status, 0, versionRun.stderr);
    assert.equal(versionRun.stdout, `schemaval ${version}\n`);
    const help = run(['validate', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: schemaval validate \[--json\] --schema FILE/);
  });

  it('says in words that a file is missing or a directory, and prints --json errors on stdout', () => {
    const missing = run(['validate', '--schema', 'nope.json'], '{}');
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, 'schemaval: cannot read "nope.json": no such file\n');
    const directory = run(['lint', 'examples']);
    assert.equal(directory.status, 2);
    assert.equal(directory.stderr, 'schemaval: cannot read "examples": is a directory\n');
    const json = run(['lint', '--json', '-'], '{"tools": [}');
    assert.equal(json.status, 2);
    assert.equal(json.stderr, '');
    assert.deepEqual(JSON.parse(json.stdout), {
      error: { code: 'invalid_json', message: "<stdin>:1:12: not valid JSON: array item expected but got '}'" },
    });
  });
});
