// The real executable, as a user runs it: a child process with pipes and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/schemaval.js', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8', timeout: 60_000 });

describe('bin/schemaval.js', () => {
  it('validates standard input against a schema file and exits 1 with issue lines', () => {
    const result = run(['validate', '--schema', 'examples/weather-input.schema.json'], '{"city":"Oslo","days":0}');
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stdout, '$.days: got 0, want at least 1\n');
  });

  it('lints the example tools and exits 1 with the summary line', () => {
    const result = run(['lint', 'examples/tools.json']);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stdout, /^6 tools: 4 accepted, 2 refused, 1 warning$/m);
  });

  it('exits 2 with usage for a bad invocation', () => {
    const result = run(['lint']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /usage:/);
  });
});
