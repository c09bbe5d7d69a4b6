// `lint` progress on standard error (issue 22): pages listed, tools linted, elapsed time; only on a terminal or
// with --progress, never on standard output. Driven by a slow server on 127.0.0.1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { createValidator } from '../../src/host/node.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { type SlowPages, serveSlowPages } from '../helpers/slow-pages-upstream.ts';

const inline = { createValidator: (options: object) => createValidator({ ...options, mode: 'inline' }) };
const example = readFileSync(new URL('../../examples/tools.json', import.meta.url), 'utf8');

describe('schemaval lint progress', () => {
  let slow: SlowPages;
  let url: string;

  // The fixture's four tools, one per page, each page after the first 150 ms late.
  before(async () => {
    slow = await serveSlowPages(() => 150);
    url = slow.url;
  });

  after(() => slow.close());

  it('shows each page, the listing and the lint with the time so far under --progress, stdout unchanged', async () => {
    const quiet = memoryIo({});
    assert.equal(await main(['lint', '--url', url], quiet, inline), 1);
    assert.equal(quiet.err(), '', 'not a terminal, not asked: no progress');
    const io = memoryIo({});
    assert.equal(await main(['lint', '--progress', '--url', url], io, inline), 1);
    assert.equal(io.out(), quiet.out());
    const lines = io.err().trimEnd().split('\n');
    const href = new URL(url).href;
    assert.deepEqual(
      lines.map((line) => line.replace(/ \(\d+\.\d s\)$/, '')),
      [
        `schemaval: connecting to ${href}`,
        'schemaval: page 1: 1 tool so far',
        'schemaval: page 2: 2 tools so far',
        'schemaval: page 3: 3 tools so far',
        'schemaval: page 4: 4 tools so far',
        'schemaval: listed 4 tools in 4 pages',
        'schemaval: linted 4 of 4 tools',
      ],
    );
    for (const line of lines) assert.match(line, / \(\d+\.\d s\)$/);
    const seconds = lines.map((line) => Number(/\((\d+\.\d) s\)$/.exec(line)?.[1]));
    assert.ok((seconds.at(-1) ?? 0) >= 0.4, 'three slow pages took their time');
    assert.deepEqual(
      seconds,
      [...seconds].sort((a, b) => a - b),
    );
  });

  it('shows progress when standard error is a terminal, and keeps it off stdout for the reports', async () => {
    const io = { ...memoryIo({}), stderrIsTty: true };
    assert.equal(await main(['lint', '--format', 'sarif', '--url', url], io, inline), 1);
    assert.match(io.err(), /^schemaval: connecting to /);
    assert.match(io.err(), /^schemaval: listed 4 tools in 4 pages \(/m);
    assert.equal(JSON.parse(io.out()).version, '2.1.0', 'stdout is the SARIF log alone');
  });

  it('says how many tools a file held and when they were linted, when asked (a terminal alone does not)', async () => {
    const terminal = { ...memoryIo({ 'tools.json': example }), stderrIsTty: true };
    assert.equal(await main(['lint', 'tools.json'], terminal, inline), 1);
    assert.equal(terminal.err(), '');
    const io = memoryIo({ 'tools.json': example });
    assert.equal(await main(['lint', '--progress', 'tools.json'], io, inline), 1);
    assert.match(io.err(), /^schemaval: read 6 tools \(\d+\.\d s\)\nschemaval: linted 6 of 6 tools \(\d+\.\d s\)\n$/);
  });
});
