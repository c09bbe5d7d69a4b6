// `schemaval lint big.json | head -1` (issue 22): when the reader of standard output goes away, the real executable
// stops at once, saying nothing (no EPIPE stack trace), with 128 + SIGPIPE as a Unix tool would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../../scripts/build.mjs';
import { brokenPipeExit } from '../../src/cli/node-io.ts';

const bin = fileURLToPath(new URL('../../bin/schemaval.js', import.meta.url));

/**
 * Runs the executable with standard output on a pipe, reads until `enough` of it has come, then closes the
 * pipe's reading end, as `head` does once it has its lines; the child's next write finds no reader.
 */
function runUntil(
  args: string[],
  enough: (out: string) => boolean,
): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (enough(out)) child.stdout.destroy();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}

describe('bin/schemaval.js with its output piped to a reader that stops early', () => {
  let scratch: string;
  let big: string;

  before(() => {
    buildCli();
    scratch = mkdtempSync(join(tmpdir(), 'schemaval-epipe-'));
    big = join(scratch, 'big.json');
    // Far more output than a pipe holds (64 KiB on Linux): the child cannot have written it all by the first read.
    const tools = Array.from({ length: 20_000 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object' } }));
    writeFileSync(big, JSON.stringify({ tools }));
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const format of [[], ['--format', 'junit']]) {
    const label = format.length === 0 ? 'the streamed text' : 'one report at the end (junit)';
    it(`exits ${brokenPipeExit} with nothing on standard error after the first line of ${label}`, async () => {
      const { code, signal, out, err } = await runUntil(['lint', ...format, big], (text) => text.includes('\n'));
      assert.equal(err, '', 'no EPIPE stack trace');
      assert.equal(signal, null);
      assert.equal(code, brokenPipeExit);
      assert.ok(out.length < 2_000_000, 'it stopped: not every line was written');
    });
  }

  it('still exits with its verdict when the reader reads everything', async () => {
    const { code, err, out } = await runUntil(['lint', big], () => false);
    assert.equal(code, 0, err);
    assert.match(out, /^20000 tools: 20000 accepted, 0 refused$/m);
  });
});
