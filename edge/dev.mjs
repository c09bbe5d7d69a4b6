// `npm run edge -- [options]` (`usage` below): the edge Worker under `wrangler dev`, local and offline, on 127.0.0.1
// only. Stops wrangler (and with it workerd) on Ctrl-C or SIGTERM. npm start and the wrangler tests run it too.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutBrokenPipes } from '../scripts/disconnect-noise.mjs';
import { scriptArgs } from '../scripts/script-args.mjs';

const edge = dirname(fileURLToPath(import.meta.url));
const root = dirname(edge);
const host = '127.0.0.1';

const usage = `usage: npm run edge -- [--port 8787] [--var KEY:VALUE ...] [--persist-to DIR] [--inspector-port N]
  --port N            where the Worker answers (default 8787)
  --var KEY:VALUE     a Worker variable, e.g. --var CORS_ORIGINS:http://localhost:5173 (repeatable)
  --persist-to DIR    where the local Durable Object state is kept (default: edge/.wrangler/state); two
                      wrangler dev runs at once need two folders (npm start keeps its own)
  --inspector-port N  wrangler's inspector; 0 picks any free port. Default: SCHEMAVAL_INSPECTOR_PORT if set,
                      else port + 1000, or any free port when that one is taken
  --build-page        bundle the demo page into edge/public first (what npm run edge does)
  --raw-output        forward wrangler's output unfiltered (by default workerd's harmless "Broken pipe" error for
                      a client that went away is left out; see scripts/disconnect-noise.mjs)
  -h, --help          this help`;
const { values } = scriptArgs({
  command: 'npm run edge',
  usage,
  options: {
    port: { type: 'string', default: '8787' },
    var: { type: 'string', multiple: true, default: [] },
    'persist-to': { type: 'string' },
    'inspector-port': { type: 'string' },
    'build-page': { type: 'boolean', default: false },
    'raw-output': { type: 'boolean', default: false },
  },
});

if (values['persist-to'] === '') {
  console.error('--persist-to wants a folder, got ""');
  process.exit(2);
}

/** A TCP port from text, or undefined when it is not one (0 only where `zero` allows it). */
const portOf = (text, zero) => {
  const candidate = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return candidate <= 65535 && (zero ? candidate >= 0 : candidate >= 1) ? candidate : undefined;
};
const port = portOf(values.port, false);
if (port === undefined) {
  console.error(`--port wants a TCP port, got ${JSON.stringify(values.port)}`);
  process.exit(2);
}
// The flag wins over the environment, so one checkout can set SCHEMAVAL_INSPECTOR_PORT and still override it once.
const inspectorSetting = values['inspector-port'] ?? process.env.SCHEMAVAL_INSPECTOR_PORT;
const inspectorSource = values['inspector-port'] === undefined ? 'SCHEMAVAL_INSPECTOR_PORT' : '--inspector-port';
const askedInspector = inspectorSetting === undefined || inspectorSetting === '' ? undefined : portOf(inspectorSetting, true);
if (inspectorSetting !== undefined && inspectorSetting !== '' && askedInspector === undefined) {
  console.error(`${inspectorSource} wants a TCP port (0: any free), got ${JSON.stringify(inspectorSetting)}`);
  process.exit(2);
}
for (const entry of values.var) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*:/.test(entry)) {
    console.error(`--var wants KEY:VALUE, got ${JSON.stringify(entry)}`);
    process.exit(2);
  }
}

// Here rather than before this script in package.json, so --help and a mistake answer without a page build first;
// before the ports are looked at, so none chosen free can be taken during the build.
if (values['build-page']) await (await import('../scripts/build-page.mjs')).buildPage();

/** True when nothing listens on 127.0.0.1:port. */
const isFree = (candidate) =>
  new Promise((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(candidate, host, () => server.close(() => resolve(true)));
  });

/** A port the OS considers free right now. */
const anyFreePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, host, () => {
        const { port: free } = server.address();
        server.close(() => resolve(free));
      });
  });

if (!(await isFree(port))) {
  console.error(`cannot serve on ${host}:${port}: it is already in use; pick another with --port N`);
  process.exit(1);
}

if (askedInspector !== undefined && askedInspector !== 0) {
  const why = askedInspector === port ? 'it is --port itself' : (await isFree(askedInspector)) ? undefined : 'it is already in use';
  if (why !== undefined) {
    console.error(
      `cannot put the inspector on ${host}:${askedInspector} (${inspectorSource}): ${why}; pick another, or 0 for any free port`,
    );
    process.exit(1);
  }
}
// Unset, port + 1000 keeps the inspector predictable, and any free port stands in when another process holds that one;
// never the default 9229, which another debugger may hold. 0 asks the OS (two test runs on one machine never collide).
const inspectorPort =
  askedInspector !== undefined && askedInspector !== 0
    ? askedInspector
    : askedInspector === undefined && port + 1000 <= 65535 && (await isFree(port + 1000))
      ? port + 1000
      : await anyFreePort();

mkdirSync(join(root, '.cache', 'xdg'), { recursive: true });
const env = {
  ...process.env,
  CI: 'true', // no prompts, no interactive session
  WRANGLER_SEND_METRICS: 'false', // no telemetry (must be "true" or "false", never empty)
  CLOUDFLARE_CF_FETCH_ENABLED: 'false', // do not fetch Request.cf from the internet
  XDG_CONFIG_HOME: join(root, '.cache', 'xdg'), // wrangler's config and logs stay in the checkout
  // Its output reaches the terminal through a pipe (below): keep wrangler's colours when that is a terminal.
  ...(process.stdout.isTTY && process.env.NO_COLOR === undefined ? { FORCE_COLOR: '1' } : {}),
};

// wrangler runs from edge/, so a relative folder is resolved here, against where the command was typed (npm's INIT_CWD).
const persistTo =
  values['persist-to'] === undefined
    ? join(edge, '.wrangler', 'state')
    : resolve(process.env.INIT_CWD ?? process.cwd(), values['persist-to']);

// The wrangler launcher itself (not npx): it forwards SIGINT/SIGTERM to its CLI, which shuts workerd down.
const wranglerBin = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const args = [
  wranglerBin,
  'dev',
  '--local',
  '--ip',
  host,
  '--port',
  String(port),
  '--inspector-port',
  String(inspectorPort),
  '--show-interactive-dev-session=false',
  ...values.var.flatMap((entry) => ['--var', entry]),
  '--persist-to',
  persistTo,
];
const wrangler = spawn(process.execPath, args, { cwd: edge, env, stdio: ['ignore', 'pipe', 'pipe'] });
// Through the broken-pipe filter (scripts/disconnect-noise.mjs), unless asked for everything.
const forward = (from, to) => (values['raw-output'] ? from : from.pipe(withoutBrokenPipes())).pipe(to);
forward(wrangler.stdout, process.stdout);
forward(wrangler.stderr, process.stderr);
// Another workerd on the same state folder makes this one fail at start with SQLITE_BUSY: say what to do about it.
let stateLocked = false;
const lockedState = /database is locked|SQLITE_BUSY/;
for (const stream of [wrangler.stdout, wrangler.stderr]) {
  stream.on('data', (chunk) => {
    if (!stateLocked && lockedState.test(String(chunk))) stateLocked = true;
  });
}
wrangler.once('exit', () => {
  if (stateLocked && !stopping) {
    console.error(
      `schemaval edge: the Durable Object state in ${persistTo} is held by another wrangler dev; stop that one, or give this one its own --persist-to DIR`,
    );
  }
});
// A reader that went away (EPIPE) is no reason to crash with wrangler still running: it is stopped as usual.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

const url = `http://${host}:${port}`;
console.log(`schemaval edge: starting wrangler dev on ${url} (inspector ${host}:${inspectorPort})`);

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  wrangler.kill(signal);
  // wrangler stops workerd within ~2 s; do not wait forever on a stuck one.
  setTimeout(() => wrangler.kill('SIGKILL'), 10_000).unref();
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// `kill <npm pid>` ends npm and its shell but signals nobody below them: stop once orphaned, too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop('SIGTERM'), 1000).unref();
// On 'close', once wrangler's last lines have passed through the pipes; at most 2 s after 'exit', should a
// workerd that outlives it hold them open.
const finish = (code, signal) => setImmediate(() => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
wrangler.on('close', finish);
wrangler.on('exit', (code, signal) => setTimeout(() => finish(code, signal), 2000).unref());

// Say where to go once the Worker actually answers.
for (let i = 0; i < 240 && !stopping && wrangler.exitCode === null; i++) {
  const up = await fetch(`${url}/healthz`).then(
    (res) => res.ok,
    () => false,
  );
  if (up) {
    if (wrangler.exitCode === null) console.log(`schemaval edge: ready on ${url}  (try: curl ${url}/healthz)`);
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
