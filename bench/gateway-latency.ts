// Section 6: tools/call through the /mcp gateway in real workerd against the same client calling the same upstream
// directly, on loopback, for JSON and SSE responses and both protocol revisions (2025-11-25 with the v1 SDK client and
// a sessionful v1 server; 2026-07-28 with the v2 client pinned to it and a stateless v2 server).
//
// Two settings of workerd, each with a forward-only Worker beside the gateway as its floor:
// - `wrangler dev`: what a user deploy-tests with. Every request also passes wrangler's proxy Worker (a second
//   workerd process) and the Worker runs with a DevTools session attached (Runtime and Network domains enabled).
// - `workerd`: the same bundle wrangler would deploy, in the same workerd through Miniflare, with the options wrangler
//   derives from wrangler.jsonc (assets router and run_worker_first included), without the dev proxy and inspector.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { freePort, startWranglerDev } from '../edge/test/helpers/wrangler-dev.ts';
import { serveFetchHandler } from '../examples/serve-fetch-handler.ts';
import { createUpstream } from '../test/helpers/http-upstream.ts';
import { median } from './harness.ts';
import { bundleEdgeWorker, edgeConfigPath, type RunningWorker, startWorkerd } from './workerd-direct.ts';

export interface LatencySummary {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export type ResponseKind = 'json' | 'sse';
export type Revision = '2025-11-25' | '2026-07-28';

/** The paths every row measures, alternating call by call. */
export const latencyPaths = ['direct', 'devPassthrough', 'devGateway', 'workerdPassthrough', 'workerdGateway'] as const;
export type LatencyPath = (typeof latencyPaths)[number];

export interface LatencyRow {
  readonly revision: Revision;
  readonly response: ResponseKind;
  readonly paths: Readonly<Record<LatencyPath, LatencySummary>>;
}

export interface GatewayLatency {
  readonly calls: number;
  readonly rows: readonly LatencyRow[];
  /** HTTP requests the upstream served and TCP connections it accepted over the whole section (reuse check). */
  readonly upstreamRequests: number;
  readonly upstreamConnections: number;
}

/** Issue #10's targets: the gateway's p50 and p99 as multiples of the direct call's. */
export const latencyTargets = { p50: 1.3, p99: 1.5 } as const;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const summary = (values: number[]): LatencySummary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: median(sorted), p99Ms: percentile(sorted, 99) };
};

/** Picks the upstream per request, so one upstream URL (one gateway configuration) serves every row. */
const upstreamHeader = 'x-bench-upstream';

/** A stateless 2026-07-28 server (the v2 SDK's `createMcpHandler`) with the same `echo` tool as the v1 fixture. */
function createModernUpstream(responseMode: ResponseKind) {
  return createMcpHandler(
    () => {
      const server = new Server({ name: 'bench-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
      const echo = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
      server.setRequestHandler('tools/list', async () => ({ tools: [echo] as never }));
      server.setRequestHandler('tools/call', async (request) => ({
        content: [{ type: 'text', text: String((request.params.arguments as { text?: unknown } | undefined)?.text) }],
      }));
      return server;
    },
    { responseMode, keepAliveMs: 0 },
  );
}

/** The forward-only Worker under `wrangler dev`. */
const startDevPassthrough = (upstreamUrl: string): Promise<RunningWorker> =>
  startDevWorker(fileURLToPath(new URL('./passthrough/wrangler.jsonc', import.meta.url)), { UPSTREAM_MCP_URL: upstreamUrl });

/**
 * A floor Worker (its wrangler.jsonc at `config`) under `wrangler dev`, started like edge/dev.mjs starts the gateway
 * (offline, 127.0.0.1); ready once it answers GET /healthz with a 2xx.
 */
export async function startDevWorker(config: string, vars: Record<string, string>): Promise<RunningWorker> {
  const port = await freePort();
  const wrangler = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
  const args = [wrangler, 'dev', '--local', '--config', config, '--ip', '127.0.0.1', '--port', String(port)];
  args.push('--inspector-port', String(await freePort()), '--show-interactive-dev-session=false');
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);
  const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
  const child: ChildProcess = spawn(process.execPath, args, { stdio: 'ignore', env });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`wrangler dev of ${config} exited (${child.exitCode})`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev of ${config} did not start within 90 s`);
}

interface Caller {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

/** One connected SDK client of the row's revision; every request carries the header that picks the row's upstream. */
async function connect(url: string, revision: Revision, response: ResponseKind): Promise<Caller> {
  const requestInit = { headers: { [upstreamHeader]: `${revision}/${response}` } };
  const args = { name: 'echo', arguments: { text: 'hi' } };
  if (revision === '2025-11-25') {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
    return { call: () => client.request({ method: 'tools/call', params: args }, CallToolResultSchema), close: () => client.close() };
  }
  const client = new ClientV2({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL(url), { requestInit }));
  return { call: () => client.callTool(args), close: () => client.close() };
}

/**
 * A bounded loop of `calls` tools/call per path, alternating path by path, after a warm-up, for each revision and
 * response kind; loopback only.
 */
export async function measureGatewayLatency(calls = 300): Promise<GatewayLatency> {
  const legacy = { json: createUpstream({ json: true }), sse: createUpstream() };
  const modern = { json: createModernUpstream('json'), sse: createModernUpstream('sse') };
  let upstreamRequests = 0;
  const served = await serveFetchHandler((request) => {
    upstreamRequests++;
    const [revision, response] = (request.headers.get(upstreamHeader) ?? '').split('/');
    const kind: ResponseKind = response === 'json' ? 'json' : 'sse';
    return revision === '2026-07-28' ? modern[kind].fetch(request) : legacy[kind].handle(request);
  });
  const upstreamUrl = `${served.origin}/mcp`;
  const vars = { UPSTREAM_MCP_URL: upstreamUrl };
  const running: RunningWorker[] = [];
  const callers: Caller[] = [];
  try {
    const passthroughConfig = fileURLToPath(new URL('./passthrough/wrangler.jsonc', import.meta.url));
    const passthroughScript = fileURLToPath(new URL('./passthrough/worker.js', import.meta.url));
    const edgeBundle = await bundleEdgeWorker();
    const base: Record<LatencyPath, RunningWorker> = {
      direct: { url: served.origin, stop: async () => undefined },
      devGateway: await startWranglerDev(vars),
      devPassthrough: await startDevPassthrough(upstreamUrl),
      workerdGateway: await startWorkerd(edgeConfigPath, edgeBundle, vars),
      workerdPassthrough: await startWorkerd(passthroughConfig, passthroughScript, vars),
    };
    running.push(...Object.values(base));
    const rows: LatencyRow[] = [];
    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      for (const response of ['json', 'sse'] as const) {
        const paths = {} as Record<LatencyPath, Caller>;
        for (const key of latencyPaths) {
          paths[key] = await connect(`${base[key].url}/mcp`, revision, response);
          callers.push(paths[key]);
        }
        for (let i = 0; i < 30; i++) for (const key of latencyPaths) await paths[key].call();
        const times = Object.fromEntries(latencyPaths.map((key) => [key, [] as number[]])) as Record<LatencyPath, number[]>;
        for (let i = 0; i < calls; i++) {
          for (const key of latencyPaths) {
            const started = performance.now();
            await paths[key].call();
            times[key].push(performance.now() - started);
          }
        }
        const summaries = Object.fromEntries(latencyPaths.map((key) => [key, summary(times[key])])) as Record<LatencyPath, LatencySummary>;
        rows.push({ revision, response, paths: summaries });
      }
    }
    return { calls, rows, upstreamRequests, upstreamConnections: served.connections() };
  } finally {
    for (const caller of callers) await caller.close().catch(() => undefined);
    for (const worker of running) await worker.stop().catch(() => undefined);
    await served.close();
    await legacy.json.close();
    await legacy.sse.close();
    await modern.json.close();
    await modern.sse.close();
  }
}

const pathLabels: Record<LatencyPath, string> = {
  direct: 'direct',
  devPassthrough: 'wrangler dev, forward-only Worker',
  devGateway: 'wrangler dev, gateway',
  workerdPassthrough: 'workerd, forward-only Worker',
  workerdGateway: 'workerd, gateway',
};

/** Section 6's lines: each row's latencies per path. */
export function gatewayLatencyLines(result: GatewayLatency): string[] {
  const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(9);
  const lines = [`  ${result.calls} calls per path, alternating, after a warm-up`];
  for (const row of result.rows) {
    lines.push(`  ${row.revision} ${row.response.toUpperCase()} responses`);
    for (const key of latencyPaths) {
      lines.push(`    ${pathLabels[key].padEnd(34)} p50 ${ms(row.paths[key].p50Ms)}  p99 ${ms(row.paths[key].p99Ms)}`);
    }
  }
  lines.push(
    `  the upstream served ${result.upstreamRequests} HTTP requests over ${result.upstreamConnections} TCP connections (kept alive)`,
  );
  return lines;
}

/**
 * The summary lines, per row and setting: gateway / direct against the targets (PASS/MISS), and gateway / the
 * forward-only Worker of the same setting (what the gateway adds above the floor of any Worker there).
 */
export function gatewayLatencySummary(result: GatewayLatency): string[] {
  const verdict = (ratio: number, target: number) => `${ratio.toFixed(2)}x ${ratio <= target ? 'PASS' : 'MISS'}`;
  const lines: string[] = [];
  for (const row of result.rows) {
    const { direct } = row.paths;
    for (const [setting, gateway, floor] of [
      ['wrangler dev', row.paths.devGateway, row.paths.devPassthrough],
      ['workerd', row.paths.workerdGateway, row.paths.workerdPassthrough],
    ] as const) {
      lines.push(
        `  ${row.revision} ${row.response.padEnd(4)} ${setting.padEnd(12)} vs direct: p50 ${verdict(gateway.p50Ms / direct.p50Ms, latencyTargets.p50)}` +
          `  p99 ${verdict(gateway.p99Ms / direct.p99Ms, latencyTargets.p99)}` +
          `   vs forward-only: p50 ${(gateway.p50Ms / floor.p50Ms).toFixed(2)}x  p99 ${(gateway.p99Ms / floor.p99Ms).toFixed(2)}x` +
          `   (forward-only vs direct: p50 ${(floor.p50Ms / direct.p50Ms).toFixed(2)}x)`,
      );
    }
  }
  return lines;
}
