// `npm start`: the demo upstream MCP server and the edge (wrangler dev, real workerd) with the page, on 127.0.0.1.
// Prints the URL; Ctrl-C stops both. Options: --port N (edge, default 8787), --upstream-port N (default any free),
// --allow URL (repeatable, or comma-separated): further MCP servers the page may connect to (ALLOWED_UPSTREAMS).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { buildPage } from './build-page.mjs';

register();
const { startDemoServer } = await import('../examples/demo-server.ts');

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    'upstream-port': { type: 'string', default: '0' },
    allow: { type: 'string', multiple: true, default: [] },
  },
});
const port = Number(values.port);
const root = fileURLToPath(new URL('..', import.meta.url));

await buildPage();
const upstream = await startDemoServer(Number(values['upstream-port']));
console.log(`demo MCP server on ${upstream.url}`);

// The edge through edge/dev.mjs (`npm run edge`): one place knows how to run wrangler dev offline and stop it.
// The demo server is the default upstream and heads the allow-list; --allow adds the servers the page may name.
const allowed = [upstream.url, ...values.allow.flatMap((entry) => entry.split(',')).map((entry) => entry.trim())].filter(Boolean);
if (allowed.length > 1) console.log(`the page may also connect to: ${allowed.slice(1).join(', ')}`);
const edgeArgs = ['--port', String(port), '--var', `UPSTREAM_MCP_URL:${upstream.url}`, '--var', `ALLOWED_UPSTREAMS:${allowed.join(',')}`];
const wrangler = spawn(process.execPath, [`${root}edge/dev.mjs`, ...edgeArgs], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
wrangler.stdout.on('data', () => undefined); // wrangler's own banner stays out of the way
let stopping = false;
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
wrangler.on('exit', (code) => {
  if (!stopping) {
    console.error(`wrangler dev exited (${code})`);
    void stop(1);
  }
});

// Wait until the edge answers, then say where to go.
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 360 && !stopping; i++) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {
    // not yet
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.log(`\nschemaval demo: open ${url}/  (Ctrl-C to stop)\n`);
