// Generates edge/worker-configuration.d.ts (the Worker's Env and workerd's runtime types) with `wrangler types`,
// offline. The file is build output, not source (about 13,500 lines), so it is git-ignored and made here: when it
// is missing or `wrangler types --check` finds it out of date (wrangler.jsonc or the workerd version changed).
// `--force` regenerates regardless. Run by `npm run typecheck` and `npm run build` before tsc reads edge/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const edge = resolve(root, 'edge');
const output = resolve(edge, 'worker-configuration.d.ts');
const env = {
  ...process.env,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: resolve(root, '.cache/xdg'),
};

/** `wrangler types` from edge/ (so the generated imports are relative to it); `--strict-vars=false`: vars are strings. */
function wranglerTypes(extra) {
  return spawnSync(process.execPath, [resolve(root, 'node_modules/wrangler/bin/wrangler.js'), 'types', '--strict-vars=false', ...extra], {
    cwd: edge,
    env,
    encoding: 'utf8',
  });
}

const force = process.argv.includes('--force');
if (!force && existsSync(output) && wranglerTypes(['--check']).status === 0) process.exit(0);
const run = wranglerTypes([]);
if (run.status !== 0) {
  process.stderr.write(`${run.stdout}${run.stderr}`);
  console.error('edge-types: wrangler types failed');
  process.exit(1);
}
console.log('edge-types: wrote edge/worker-configuration.d.ts');
