// `npm run deploy`: builds the demo page (unless SCHEMAVAL_PAGE=off) and publishes the edge Worker with
// `wrangler deploy` from edge/. Extra arguments go to wrangler (`-- --dry-run --outdir DIR`, `-- --env staging`);
// the paths among them are read from where npm was run, not from edge/. Without the page, wrangler gets a copy of
// edge/wrangler.jsonc with no `assets`: the Worker alone is published and `/` answers 404 like any other unknown
// path. docs/edge.md, "Deploy".
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const edge = resolve(root, 'edge');
const mainConfig = resolve(edge, 'wrangler.jsonc');
/** Under edge/.wrangler/ (git-ignored), so wrangler's own state for it stays out of the tree. */
const noPageConfig = resolve(edge, '.wrangler/no-page/wrangler.json');

export const usage = `usage: npm run deploy -- [wrangler deploy options]
  Builds the demo page into edge/public, then runs wrangler deploy with edge/wrangler.jsonc. Every option but
  --help is wrangler's (npx wrangler deploy --help); paths in them (--outdir, --outfile, --assets, …) are read from
  the directory you ran npm in.
  e.g. npm run deploy -- --dry-run --outdir dist-edge   bundle only, into ./dist-edge: no account, no network
       npm run deploy -- --env staging
  SCHEMAVAL_PAGE=off  publish the Worker alone, without the page
  -h, --help          this help`;

/**
 * The options `wrangler deploy` takes, aliases included (wrangler 4.86's \`deploy --help\`; a test keeps this list
 * equal to it). Anything else is refused here, in one line, before the page is built.
 */
export const wranglerDeployOptions = [
  ...['-c', '--config', '--cwd', '-e', '--env', '--env-file', '-v', '--version', '--name', '--no-bundle'],
  ...['--outdir', '--outfile', '--compatibility-date', '--compatibility-flags', '--compatibility-flag', '--latest'],
  ...['--assets', '--var', '--define', '--alias', '--triggers', '--schedule', '--schedules', '--routes', '--route'],
  ...['--domains', '--domain', '--jsx-factory', '--jsx-fragment', '--tsconfig', '--minify', '--dry-run', '--metafile'],
  ...['--keep-vars', '--logpush', '--upload-source-maps', '--old-asset-ttl', '--dispatch-namespace'],
  ...['--containers-rollout', '--tag', '--message', '--strict', '--experimental-autoconfig', '--x-autoconfig'],
  '--secrets-file',
];
/** wrangler's options that name a file or folder. */
const pathOptions = new Set([
  ...['-c', '--config', '--cwd', '--env-file', '--outdir', '--outfile'],
  ...['--assets', '--tsconfig', '--metafile', '--secrets-file'],
]);

/** What the arguments ask: `{ kind: 'help' }`, `{ kind: 'error', message }` or `{ kind: 'run' }`. */
export function readDeployArgs(args) {
  const end = args.indexOf('--');
  const options = (end === -1 ? args : args.slice(0, end)).filter((arg) => arg.startsWith('-'));
  if (options.some((arg) => arg === '-h' || arg === '--help')) return { kind: 'help' };
  for (const arg of options) {
    const name = arg.split('=')[0];
    // yargs, wrangler's parser, also reads --no-NAME as NAME=false.
    if (!wranglerDeployOptions.includes(name) && !wranglerDeployOptions.includes(name.replace(/^--no-/, '--'))) {
      return { kind: 'error', message: `unknown option ${name}` };
    }
  }
  return { kind: 'run' };
}

/**
 * The arguments with every path made absolute against `base` (npm's INIT_CWD: where the user ran the command), since
 * wrangler runs in edge/ and would otherwise write `--outdir X` to edge/X.
 */
export function fromUserDir(args, base) {
  const end = args.indexOf('--');
  return args.map((arg, index) => {
    if (end !== -1 && index > end) return arg;
    const inline = /^(-[^=]+)=(.*)$/.exec(arg);
    if (inline !== null) return pathOptions.has(inline[1]) ? `${inline[1]}=${absolute(inline[2], base)}` : arg;
    const previous = args[index - 1];
    return previous !== undefined && pathOptions.has(previous) && !arg.startsWith('-') ? absolute(arg, base) : arg;
  });
}

const absolute = (path, base) => (path === '' || isAbsolute(path) ? path : resolve(base, path));

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
  const base = env.INIT_CWD ?? process.cwd();
  const wranglerArgs = ['deploy', '--config', config, ...fromUserDir(args, base)];
  return { page, config, wranglerArgs, dryRun: args.includes('--dry-run') };
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
  const args = process.argv.slice(2);
  const read = readDeployArgs(args);
  if (read.kind === 'help') {
    console.log(usage);
    process.exit(0);
  }
  if (read.kind === 'error') {
    console.error(`npm run deploy: ${read.message} (npm run deploy -- --help lists the options)`);
    process.exit(2);
  }
  try {
    process.exitCode = await deploy({ args });
  } catch (error) {
    console.error(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
