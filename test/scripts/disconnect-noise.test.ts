// edge/dev.mjs leaves out workerd's "Broken pipe" error for a client that went away (scripts/disconnect-noise.mjs),
// and nothing else: other errors, their stacks and the lines around them pass unchanged.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import { dropBrokenPipes, isBrokenPipeLine, withoutBrokenPipes } from '../../scripts/disconnect-noise.mjs';

const brokenPipe =
  '✘ [ERROR] kj::getCaughtExceptionAsKj() = kj/async-io-unix.c++:186: disconnected: ::write(fd, buffer.begin(), buffer.size()): Broken pipe';
const stack = '  stack: /repo/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51faac1 /repo/…/workerd@51fb771';
/** As wrangler prints it to a terminal: red cross, red-on-red [ERROR], bold message. */
const coloured = `\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1m${brokenPipe.slice(10)}\u001b[0m`;

describe('disconnect noise', () => {
  it('recognises the broken-pipe line, plain or coloured, and no other error', () => {
    assert.equal(isBrokenPipeLine(brokenPipe), true);
    assert.equal(isBrokenPipeLine(coloured), true);
    assert.equal(isBrokenPipeLine(brokenPipe.replace('186', '190')), true);
    assert.equal(isBrokenPipeLine(brokenPipe.replace('Broken pipe', 'Connection reset by peer')), false);
    assert.equal(isBrokenPipeLine(brokenPipe.replace('::write(', '::read(')), false);
    assert.equal(isBrokenPipeLine('✘ [ERROR] Uncaught TypeError: Broken pipe'), false);
    assert.equal(isBrokenPipeLine(`mcp gateway: ${brokenPipe}`), false);
  });

  it('drops the line with its blank lines and stack, keeping what comes before and after', () => {
    const lines = ['[wrangler:info] POST /mcp 200 OK (12ms)', brokenPipe, '', stack, '', '', '[wrangler:info] GET / 200 OK (3ms)'];
    assert.deepEqual(dropBrokenPipes(lines), ['[wrangler:info] POST /mcp 200 OK (12ms)', '[wrangler:info] GET / 200 OK (3ms)']);
  });

  it('keeps another error and its stack, even right after a broken pipe', () => {
    const other = '✘ [ERROR] kj/async-io-unix.c++:186: disconnected: ::read(fd): Connection reset by peer';
    assert.deepEqual(dropBrokenPipes([brokenPipe, '', stack, other, '', stack]), [other, '', stack]);
    assert.deepEqual(dropBrokenPipes(['', stack, '']), ['', stack, '']);
  });

  it('filters a stream whose chunks split lines anywhere', async () => {
    const output = `ready\n${brokenPipe}\n\n${stack}\n\n\n${coloured}\n\n${stack}\n\n✘ [ERROR] something else\nlast line`;
    const chunks = output.match(/[\s\S]{1,7}/g) ?? [];
    const filtered = await text(Readable.from(chunks).pipe(withoutBrokenPipes()));
    assert.equal(filtered, 'ready\n✘ [ERROR] something else\nlast line');
  });
});
