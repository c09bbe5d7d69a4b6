// A documented server command (`npm start`, `npm run edge`) started once: wait until it prints its URL and
// answers /healthz, hand it to the commands that talk to it, then stop its whole process group.
import { createServer } from 'node:net';
import { type ShellOptions, signalGroup, spawnShell } from './run-shell.ts';

export interface RunningServer {
  /** `http://127.0.0.1:PORT`, the origin the server printed. */
  readonly origin: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM to the group, SIGKILL if it is still there after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** A TCP port nothing listened on a moment ago (bound to 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
      });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `command`, which serves on 127.0.0.1:`port`; resolves once it printed that origin and /healthz is 200. */
export async function startServer(command: string, port: number, options: ShellOptions): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawnShell(command, options);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(child, 'SIGTERM');
      await Promise.race([exited, pause(graceMs)]);
    }
    // workerd may outlive wrangler for a moment; nothing of this group outlives the test.
    signalGroup(child, 'SIGKILL');
  };
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before it answered on ${origin}:\n${output}`);
    }
    if (output.includes(origin)) {
      const healthy = await fetch(`${origin}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return { origin, output: () => output, stop };
    }
    await pause(250);
  }
  await stop(5_000);
  throw new Error(`${command} did not print ${origin} and answer /healthz within ${options.timeoutMs} ms:\n${output}`);
}
