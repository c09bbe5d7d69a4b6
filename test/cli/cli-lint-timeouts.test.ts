// `lint --url` against a slow server on 127.0.0.1: --request-timeout bounds each request within the overall
// --timeout, and the message names the bound that ran out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { type SlowPages, serveSlowPages } from '../helpers/slow-pages-upstream.ts';

async function lint(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo({});
  const code = await main(['lint', ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

describe('schemaval lint --request-timeout', () => {
  let slow: SlowPages;
  let url: string;
  /** How long each tools/list page after the first takes. */
  let pageDelayMs = 0;

  // The fixture's four tools, one per page: the pages after the first (they carry a cursor) are slow.
  before(async () => {
    slow = await serveSlowPages(() => pageDelayMs);
    url = slow.url;
  });

  after(() => slow.close());

  it('gives up on one slow page at --request-timeout, well within --timeout, naming the bound', async () => {
    pageDelayMs = 1500;
    const { code, out, err } = await lint(['--url', url, '--timeout', '20000', '--request-timeout', '300']);
    assert.equal(code, 2, out);
    // The message names the bound that ran out: the 300 ms one, not the page (1.5 s) or the 20 s overall timeout.
    assert.equal(err, `schemaval: no answer from ${new URL(url).href} within 300 ms (tools/list, --request-timeout)\n`);
  });

  it('lists every page when each answers within --request-timeout, though all together take longer', async () => {
    pageDelayMs = 250;
    const { code, out, err } = await lint(['--url', url, '--request-timeout', '2000']);
    assert.equal(code, 1, err);
    assert.match(out, /^4 tools: 3 accepted, 1 refused$/m);
  });

  it('still stops at the overall --timeout, which it names, when that comes first', async () => {
    pageDelayMs = 400;
    const { code, err } = await lint(['--url', url, '--timeout', '600', '--request-timeout', '500']);
    assert.equal(code, 2);
    assert.match(
      err,
      new RegExp(
        `^schemaval: no answer from ${new URL(url).href} within (500 ms \\(tools/list, --request-timeout\\)|600 ms \\(tools/list\\))\\n$`,
      ),
    );
  });

  it('takes milliseconds, and only with --url or --stdio', async () => {
    for (const [argv, said] of [
      [['--url', url, '--request-timeout', '0'], /^schemaval: --request-timeout takes milliseconds from 1 to 600000, got "0"\n/],
      [['--url', url, '--request-timeout', '1s'], /^schemaval: --request-timeout takes milliseconds/],
      [['tools.json', '--request-timeout', '100'], /^schemaval: --request-timeout goes with --url or --stdio\n/],
    ] as const) {
      const { code, err } = await lint([...argv]);
      assert.equal(code, 2, argv.join(' '));
      assert.match(err, said);
    }
  });
});
