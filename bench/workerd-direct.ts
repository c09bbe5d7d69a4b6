// Section 6's second setting: the same Worker in the same workerd, started through Miniflare with the options wrangler
// derives from its wrangler.jsonc (assets router, run_worker_first, Durable Objects, vars) but without what
// `wrangler dev` adds in front of it: its proxy Worker (a second workerd process that every request passes through)
// and the DevTools inspector session (Runtime and Network domains enabled). Production has neither.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { buildPage } from '../scripts/build-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The edge Worker's own config: what `wrangler dev` reads and what the direct workerd settings derive from. */
export const edgeConfigPath = join(root, 'edge', 'wrangler.jsonc');

export interface RunningWorker {
  readonly url: string;
  stop(): Promise<void>;
}

const wranglerEnv = () => ({
  ...process.env,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: join(root, '.cache', 'xdg'),
});

/** Bundles a Worker as `wrangler deploy --dry-run` does (what would be uploaded) into `outDir`; returns the entry. */
async function bundleWorker(configPath: string, outDir: string): Promise<string> {
  mkdirSync(join(root, '.cache', 'xdg'), { recursive: true });
  const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const args = [wrangler, 'deploy', '--dry-run', '--config', configPath, '--outdir', outDir];
  const child = spawn(process.execPath, args, { cwd: dirname(configPath), env: wranglerEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`wrangler deploy --dry-run failed (${code}):\n${stderr}`);
  return join(outDir, 'index.js');
}

/**
 * Bundles the edge Worker (edge/wrangler.jsonc) into .cache/bench-edge-dist. It serves the demo page as its assets,
 * which a checkout that never ran `npm start` has not built, and wrangler refuses a missing assets directory: the
 * page is built first (unchanged files are left alone, so this costs little after the first time).
 */
export async function bundleEdgeWorker(): Promise<string> {
  await buildPage({ quiet: true });
  return bundleWorker(edgeConfigPath, join(root, '.cache', 'bench-edge-dist'));
}

/**
 * Serves `scriptPath` (an ES module bundle) on 127.0.0.1 with the worker options wrangler reads from `configPath`,
 * `vars` overriding its vars.
 */
export async function startWorkerd(configPath: string, scriptPath: string, vars: Record<string, string>): Promise<RunningWorker> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  const bindings = { ...(workerOptions.bindings as Record<string, unknown> | undefined), ...vars };
  // wrangler bundles its own copy of Miniflare's option types; the runtime shape is the same (vitest-pool-workers
  // passes these options to Miniflare the same way).
  const options = { ...workerOptions, name: 'bench', modules: true, scriptPath, bindings, host: '127.0.0.1', port: 0 };
  const mf = new Miniflare(options as ConstructorParameters<typeof Miniflare>[0]);
  const url = (await mf.ready).origin;
  return { url, stop: () => mf.dispose() };
}
