// `npm start`: the demo upstream MCP server and the edge (wrangler dev, real workerd) with the page, on 127.0.0.1.
// Prints the URL once our edge answers on that port (a port in use: exit 1); Ctrl-C stops both. Options: `usage` below.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { buildPage } from './build-page.mjs';
import { scriptArgs } from './script-args.mjs';

const usage = `usage: npm start -- [--port 8787] [--upstream-port N] [--allow URL ...] [--persist-to DIR] [--inspector-port N]
  --port N            the edge and the page (default 8787)
  --upstream-port N   the demo MCP server (default: any free port)
  --allow URL         a further MCP server the page may connect to (repeatable, or comma-separated)
  --persist-to DIR    the edge's local Durable Object state (default: edge/.wrangler/demo-state, apart from
                      npm run edge's, so the two can run at once)
  --inspector-port N  wrangler's inspector (default: SCHEMAVAL_INSPECTOR_PORT, else port + 1000 or any free; 0: any free)
  -h, --help          this help`;
// Arguments first: --help and a mistake answer before tsx or the page bundle load.
const { values } = scriptArgs({
  command: 'npm start',
  usage,
  options: {
    port: { type: 'string', default: '8787' },
    'upstream-port': { type: 'string', default: '0' },
    allow: { type: 'string', multiple: true, default: [] },
    'persist-to': { type: 'string' },
    'inspector-port': { type: 'string' },
  },
});

register();
const { startDemoServer } = await import('../examples/demo-server.ts');
const port = Number(values.port);
const root = fileURLToPath(new URL('..', import.meta.url));
const host = '127.0.0.1';

if (values['persist-to'] === '') {
  console.error('--persist-to wants a folder, got ""');
  process.exit(2);
}
// A port already in use is an error (exit 1) before anything starts, never a URL that points at someone else's server.
/** Why nothing can listen on host:candidate right now, or undefined when it is free. */
const busy = (candidate) =>
  new Promise((resolve) => {
    const server = createServer()
      .once('error', (error) => resolve(error.code === 'EADDRINUSE' ? 'it is already in use' : error.message))
      .listen(candidate, host, () => server.close(() => resolve(undefined)));
  });
for (const [flag, text] of [
  ['--port', values.port],
  ['--upstream-port', values['upstream-port']],
  ...(values['inspector-port'] === undefined ? [] : [['--inspector-port', values['inspector-port']]]),
]) {
  const candidate = Number(text);
  if (!/^\d+$/.test(text) || candidate > 65535 || (flag === '--port' && candidate === 0)) {
    console.error(`${flag} wants a TCP port, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  const why = candidate === 0 ? undefined : await busy(candidate);
  if (why !== undefined) {
    console.error(`cannot serve on ${host}:${candidate} (${flag}): ${why}; pick another with ${flag} N`);
    process.exit(1);
  }
}

await buildPage();
const upstream = await startDemoServer(Number(values['upstream-port']));
console.log(`demo MCP server on ${upstream.url}`);

// The edge through edge/dev.mjs (`npm run edge`): one place knows how to run wrangler dev offline and stop it.
// The demo server is the default upstream and heads the allow-list; --allow adds the servers the page may name.
const allowed = [upstream.url, ...values.allow.flatMap((entry) => entry.split(',')).map((entry) => entry.trim())].filter(Boolean);
if (allowed.length > 1) console.log(`the page may also connect to: ${allowed.slice(1).join(', ')}`);
const persistTo =
  values['persist-to'] === undefined
    ? `${root}edge/.wrangler/demo-state`
    : resolve(process.env.INIT_CWD ?? process.cwd(), values['persist-to']);
const edgeArgs = [
  '--port',
  String(port),
  '--persist-to',
  persistTo,
  ...(values['inspector-port'] === undefined ? [] : ['--inspector-port', values['inspector-port']]),
  '--var',
  `UPSTREAM_MCP_URL:${upstream.url}`,
  '--var',
  `ALLOWED_UPSTREAMS:${allowed.join(',')}`,
];
const startEdge = () => {
  const child = spawn(process.execPath, [`${root}edge/dev.mjs`, ...edgeArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', () => undefined); // wrangler's own banner stays out of the way
  return child;
};
let wrangler = startEdge();
let stopping = false;
let ready = false;
let restarts = 0;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping…');
  wrangler.kill('SIGTERM');
  await Promise.race([new Promise((resolve) => wrangler.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (wrangler.exitCode === null) wrangler.kill('SIGKILL');
  await upstream.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// wrangler dev has been seen to exit on its own after workerd logged a dropped connection. Once the demo is up, it is
// started again (a few times at most) rather than leaving the page without its edge; before that, an exit is fatal.
const watch = (child) =>
  child.on('exit', (code) => {
    if (stopping) return;
    console.error(`wrangler dev exited (${code})`);
    if (!ready || restarts >= 3) return void stop(1);
    restarts++;
    console.error(`restarting the edge (${restarts} of 3)…`);
    void portFreed().then((free) => {
      if (stopping) return;
      if (!free) return void stop(1);
      wrangler = startEdge();
      watch(wrangler);
    });
  });

/** Waits up to 15 s for the edge's port to be released (workerd may outlive wrangler by a moment). */
async function portFreed() {
  for (let i = 0; i < 60; i++) {
    const free = await new Promise((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (free) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
watch(wrangler);

// Wait until our wrangler answers on the port, then say where to go; if it exits or never answers, say that instead.
const url = `http://${host}:${port}`;
for (let i = 0; i < 360 && !stopping && wrangler.exitCode === null; i++) {
  try {
    ready = (await fetch(`${url}/healthz`)).ok;
  } catch {
    // not yet
  }
  if (ready) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (ready && !stopping && wrangler.exitCode === null) console.log(`\nschemaval demo: open ${url}/  (Ctrl-C to stop)\n`);
else if (!stopping && wrangler.exitCode === null) {
  console.error(`the edge did not answer on ${url} within 90 s`);
  void stop(1);
}
