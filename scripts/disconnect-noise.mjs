// workerd logs a failed write to a socket its peer has already closed as an error with a native stack, and wrangler
// prints it in red:
//
//   ✘ [ERROR] kj::getCaughtExceptionAsKj() = kj/async-io-unix.c++:186: disconnected: ::write(fd, …): Broken pipe
//
//     stack: …/workerd@51faac1 …/workerd@51fb771 …
//
// It happens when a client goes away while a response is still streaming (a browser page closed with an event
// stream open: the e2e run closes one per test) and means nothing more than that: the request was already answered
// or abandoned by the one who asked. edge/dev.mjs drops exactly this block from what it forwards; every other line,
// errors included, passes unchanged, and wrangler's own log file (.cache/xdg/.wrangler/logs/) keeps everything.
import { Transform } from 'node:stream';

/** The one line dropped (colours removed first; any source line number, since workerd's may move). */
const brokenPipe =
  /^\S*\s*\[ERROR\] kj::getCaughtExceptionAsKj\(\) = kj\/async-io-unix\.c\+\+:\d+: disconnected: ::write\(fd, buffer\.begin\(\), buffer\.size\(\)\): Broken pipe\s*$/;
/** What wrangler prints after it: blank lines and the one `stack:` line of native addresses. */
const trailer = /^\s*(stack: .*)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
const ansi = /\u001b\[[0-9;]*m/g;

/** Whether a line (with or without colours) is workerd's harmless broken-pipe error. */
export const isBrokenPipeLine = (line) => brokenPipe.test(line.replace(ansi, ''));

/** Drops the broken-pipe block from an array of lines; `state.skipping` carries over between calls. */
export function dropBrokenPipes(lines, state = { skipping: false }) {
  const kept = [];
  for (const line of lines) {
    if (isBrokenPipeLine(line)) state.skipping = true;
    else if (state.skipping && trailer.test(line.replace(ansi, ''))) continue;
    else {
      state.skipping = false;
      kept.push(line);
    }
  }
  return kept;
}

/** A stream that passes text through line by line, without the broken-pipe blocks. */
export function withoutBrokenPipes() {
  const state = { skipping: false };
  let partial = '';
  return new Transform({
    transform(chunk, _encoding, done) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      const kept = dropBrokenPipes(lines, state);
      done(null, kept.length === 0 ? '' : `${kept.join('\n')}\n`);
    },
    flush(done) {
      done(null, partial === '' ? '' : dropBrokenPipes([partial], state).join('\n'));
    },
  });
}
