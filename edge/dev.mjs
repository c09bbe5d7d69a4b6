// `npm run edge -- [--port 8787] [--var KEY:VALUE ...] [--persist-to DIR]`: the edge Worker under `wrangler dev`, local and offline,
// on 127.0.0.1 only. Stops wrangler (and with it workerd) on Ctrl-C or SIGTERM.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const edge = dirname(fileURLToPath(import.meta.url));
const root = dirname(edge);
const host = '127.0.0.1';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    var: { type: 'string', multiple: true, default: [] },
    'persist-to': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(
    'usage: npm run edge -- [--port 8787] [--var KEY:VALUE ...] [--persist-to DIR]   (e.g. --var CORS_ORIGINS:http://localhost:5173)\n' +
      '  --persist-to DIR  where the local Durable Object state is kept (default: edge/.wrangler/state)',
  );
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port wants a TCP port, got ${JSON.stringify(values.port)}`);
  process.exit(2);
}
for (const entry of values.var) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*:/.test(entry)) {
    console.error(`--var wants KEY:VALUE, got ${JSON.stringify(entry)}`);
    process.exit(2);
  }
}

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

// Port + 1000 keeps the inspector predictable; never the default 9229, which another debugger may hold.
const inspectorPort = port + 1000 <= 65535 && (await isFree(port + 1000)) ? port + 1000 : await anyFreePort();

mkdirSync(join(root, '.cache', 'xdg'), { recursive: true });
const env = {
  ...process.env,
  CI: 'true', // no prompts, no interactive session
  WRANGLER_SEND_METRICS: 'false', // no telemetry (must be "true" or "false", never empty)
  CLOUDFLARE_CF_FETCH_ENABLED: 'false', // do not fetch Request.cf from the internet
  XDG_CONFIG_HOME: join(root, '.cache', 'xdg'), // wrangler's config and logs stay in the checkout
};

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
  ...(values['persist-to'] === undefined ? [] : ['--persist-to', values['persist-to']]),
];
const wrangler = spawn(process.execPath, args, { cwd: edge, env, stdio: ['ignore', 'inherit', 'inherit'] });

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
wrangler.on('exit', (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));

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
