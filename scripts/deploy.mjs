// `npm run deploy`: builds the demo page (unless SCHEMAVAL_PAGE=off) and publishes the edge Worker with
// `wrangler deploy` from edge/. Extra arguments go to wrangler (`-- --dry-run --outdir DIR`, `-- --env staging`).
// Without the page, wrangler gets a copy of edge/wrangler.jsonc with no `assets`: the Worker alone is published and
// `/` answers 404 like any other unknown path. docs/edge.md, "Deploy".
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const edge = resolve(root, 'edge');
const mainConfig = resolve(edge, 'wrangler.jsonc');
/** Under edge/.wrangler/ (git-ignored), so wrangler's own state for it stays out of the tree. */
const noPageConfig = resolve(edge, '.wrangler/no-page/wrangler.json');

/** Reads SCHEMAVAL_PAGE: unset, empty or `on` publish the page; `off` does not; anything else is a mistake. */
export function pageEnabled(value) {
  const setting = (value ?? '').trim().toLowerCase();
  if (setting === '' || setting === 'on') return true;
  if (setting === 'off') return false;
  throw new Error(`SCHEMAVAL_PAGE must be "on" or "off", got ${JSON.stringify(value)}`);
}

/** What a run does: whether it builds the page, which config wrangler reads, and wrangler's arguments. */
export function deployPlan({ env = process.env, args = [] } = {}) {
  const page = pageEnabled(env.SCHEMAVAL_PAGE);
  const config = page ? mainConfig : noPageConfig;
  return { page, config, wranglerArgs: ['deploy', '--config', config, ...args], dryRun: args.includes('--dry-run') };
}

/** The Worker's configuration without static assets; `main` made absolute so the copy can live elsewhere. */
export function withoutAssets(rawConfig, configDir) {
  const { assets: _assets, $schema: _schema, ...rest } = rawConfig;
  return { ...rest, main: resolve(configDir, rest.main) };
}

async function writeNoPageConfig() {
  // wrangler's own reader: JSONC with comments and trailing commas, exactly as `wrangler deploy` reads it.
  const { experimental_readRawConfig } = await import('wrangler');
  const { rawConfig } = experimental_readRawConfig({ config: mainConfig });
  await mkdir(dirname(noPageConfig), { recursive: true });
  await writeFile(noPageConfig, `${JSON.stringify(withoutAssets(rawConfig, edge), null, 2)}\n`);
}

/** Runs wrangler and resolves with its exit code; Ctrl-C and SIGTERM are passed on to it. */
function runWrangler(args, env) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'node_modules/wrangler/bin/wrangler.js'), ...args], {
      cwd: edge,
      env,
      stdio: 'inherit',
    });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      done(code ?? (signal === null ? 1 : 128));
    });
  });
}

/** Builds what is needed and runs `wrangler deploy`; returns wrangler's exit code. */
export async function deploy({ env = process.env, args = [] } = {}) {
  const plan = deployPlan({ env, args });
  if (plan.page) {
    const { buildPage } = await import('./build-page.mjs');
    await buildPage();
  } else {
    await writeNoPageConfig();
    console.log('SCHEMAVAL_PAGE=off: publishing the Worker without the demo page');
  }
  // A dry run needs no account or network: the same offline settings as `npm run build:edge`.
  const offline = plan.dryRun
    ? { CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', XDG_CONFIG_HOME: resolve(root, '.cache/xdg') }
    : {};
  return runWrangler(plan.wranglerArgs, { ...env, ...offline });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = await deploy({ args: process.argv.slice(2) });
  } catch (error) {
    console.error(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
