import { readFile } from 'node:fs/promises';
import type { CliIo } from './cli-io.ts';

/**
 * The exit status when a reader went away (`schemaval lint big.json | head -1`): 128 + SIGPIPE, what a shell
 * reports for a Unix tool the signal ended, so `set -o pipefail` sees the output was cut, as for `yes | head -1`.
 */
export const brokenPipeExit = 141;

/** The CLI's I/O on a real Node process. */
export function nodeIo(): CliIo {
  quietOnBrokenPipe(process.stdout);
  quietOnBrokenPipe(process.stderr);
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readText: (file) => (file === '-' ? readStdin() : readFile(file, 'utf8')),
    stdinIsTty: process.stdin.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/**
 * Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, emitted on the stream: unhandled, that is a
 * stack trace on standard error. Nobody reads what is left to print, so the process stops at once, saying nothing.
 * Any other stream error still propagates.
 */
function quietOnBrokenPipe(stream: NodeJS.WriteStream): void {
  if (stream.listeners('error').includes(onStreamError)) return;
  stream.on('error', onStreamError);
}

function onStreamError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(brokenPipeExit);
  throw error;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
