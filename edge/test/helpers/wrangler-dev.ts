// Starts the edge Worker with `wrangler dev` (real workerd) on 127.0.0.1, offline, and stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const devScript = fileURLToPath(new URL('../../dev.mjs', import.meta.url));

export interface WranglerDev {
  /** The dev port: wrangler's dev proxy, in front of the Worker (see worker-url.ts for the Worker's own). */
  readonly url: string;
  /** The process started here (edge/dev.mjs); wrangler and its workerd processes descend from it. */
  readonly pid: number;
  readonly log: () => string;
  /** Durable Objects that keep state in this run: their SQLite files under `--persist-to`. */
  readonly durableObjects: () => number;
  stop(): Promise<void>;
}

/** A free port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export async function startWranglerDev(vars: Record<string, string> = {}, timeoutMs = 90_000): Promise<WranglerDev> {
  // The Worker serves the demo page as static assets; wrangler needs the folder to exist.
  const { buildPage } = (await import('../../../scripts/build-page.mjs')) as { buildPage: (o?: { quiet?: boolean }) => Promise<unknown> };
  await buildPage({ quiet: true });
  const port = await freePort();
  // Through edge/dev.mjs (`npm run edge`): the same offline settings and shutdown as a user gets. The inspector goes
  // on any free port (0; dev.mjs prints the one it took, see inspectorPort in worker-heap.ts), so parallel test files
  // and two checkouts' test runs never meet on port + 1000; --raw-output keeps every line wrangler prints in log().
  // Each run keeps its Durable Object state in a folder of its own, removed on stop: runs never share or pile up state.
  const state = mkdtempSync(join(tmpdir(), 'schemaval-wrangler-'));
  const args = [devScript, '--port', String(port), '--inspector-port', '0', '--raw-output', '--persist-to', state];
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return removeState();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    removeState();
  };
  const removeState = (): void => rmSync(state, { recursive: true, force: true });
  const durableObjects = (): number =>
    readdirSync(state, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.sqlite')).length;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      removeState();
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${log}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return { url, pid: child.pid ?? 0, log: () => log, durableObjects, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within ${timeoutMs} ms:\n${log}`);
}
