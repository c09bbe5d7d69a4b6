// Section 6: the /mcp gateway under wrangler dev (real workerd) against calling the upstream directly, on loopback,
// for JSON and SSE responses; a forward-only Worker under the same wrangler dev shows the environment's own floor.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort, startWranglerDev } from '../edge/test/helpers/wrangler-dev.ts';
import { serveFetchHandler } from '../examples/serve-fetch-handler.ts';
import { createUpstream } from '../test/helpers/http-upstream.ts';
import { median } from './harness.ts';

export interface LatencySummary {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export type ResponseKind = 'json' | 'sse';

export interface LatencyRow {
  readonly revision: string;
  readonly response: ResponseKind;
  readonly direct: LatencySummary;
  /** A Worker that only forwards, under the same wrangler dev: the floor any gateway there starts from. */
  readonly passthrough: LatencySummary;
  readonly gateway: LatencySummary;
}

export interface GatewayLatency {
  readonly calls: number;
  readonly rows: readonly LatencyRow[];
}

/** Issue #10's targets: the gateway's p50 and p99 as multiples of the direct call's. */
export const latencyTargets = { p50: 1.3, p99: 1.5 } as const;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const summary = (values: number[]): LatencySummary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: median(sorted), p99Ms: percentile(sorted, 99) };
};

/** Chooses the upstream's answer format per request, so one gateway (one UPSTREAM_MCP_URL) serves both rows. */
const responseHeader = 'x-bench-response';

/** The forward-only Worker under `wrangler dev`, started like edge/dev.mjs starts the gateway (offline, 127.0.0.1). */
async function startPassthrough(upstreamUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const wrangler = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
  const config = fileURLToPath(new URL('./passthrough/wrangler.jsonc', import.meta.url));
  const args = [wrangler, 'dev', '--local', '--config', config, '--ip', '127.0.0.1', '--port', String(port)];
  args.push(
    '--inspector-port',
    String(await freePort()),
    '--show-interactive-dev-session=false',
    '--var',
    `UPSTREAM_MCP_URL:${upstreamUrl}`,
  );
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
    if (child.exitCode !== null) throw new Error(`the passthrough Worker's wrangler dev exited (${child.exitCode})`);
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
  throw new Error('the passthrough Worker did not start within 90 s');
}

/**
 * A bounded loop of `calls` tools/call per path (direct, passthrough, gateway), alternating, after a warm-up, for
 * each response kind; loopback only.
 */
export async function measureGatewayLatency(calls = 300): Promise<GatewayLatency> {
  const upstreams = { json: createUpstream({ json: true }), sse: createUpstream() };
  const served = await serveFetchHandler((request) =>
    (request.headers.get(responseHeader) === 'json' ? upstreams.json : upstreams.sse).handle(request),
  );
  const upstreamUrl = `${served.origin}/mcp`;
  const dev = await startWranglerDev({ UPSTREAM_MCP_URL: upstreamUrl });
  const clients: Client[] = [];
  let passthrough: Awaited<ReturnType<typeof startPassthrough>> | undefined;
  try {
    passthrough = await startPassthrough(upstreamUrl);
    const connect = async (url: string, response: ResponseKind) => {
      const client = new Client({ name: `bench-${response}`, version: '1.0.0' });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [responseHeader]: response } } }));
      return client;
    };
    const call = (client: Client) =>
      client.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, CallToolResultSchema);
    const rows: LatencyRow[] = [];
    // TODO(G3, 2026-07-28): add the stateless revision here once the gateway speaks it end to end: a client that
    // sends `_meta` capabilities per request (e.g. @modelcontextprotocol/client 2.x) on each of the three paths.
    for (const revision of ['2025-11-25'] as const) {
      for (const response of ['json', 'sse'] as const) {
        const paths = {
          direct: await connect(upstreamUrl, response),
          passthrough: await connect(`${passthrough.url}/mcp`, response),
          gateway: await connect(`${dev.url}/mcp`, response),
        };
        await paths.gateway.listTools();
        for (let i = 0; i < 30; i++) for (const client of Object.values(paths)) await call(client);
        const times = { direct: [] as number[], passthrough: [] as number[], gateway: [] as number[] };
        for (let i = 0; i < calls; i++) {
          for (const key of ['direct', 'passthrough', 'gateway'] as const) {
            const started = performance.now();
            await call(paths[key]);
            times[key].push(performance.now() - started);
          }
        }
        rows.push({
          revision,
          response,
          direct: summary(times.direct),
          passthrough: summary(times.passthrough),
          gateway: summary(times.gateway),
        });
      }
    }
    return { calls, rows };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await passthrough?.stop();
    await dev.stop();
    await served.close();
    await upstreams.json.close();
    await upstreams.sse.close();
  }
}

/** Section 6's lines: each row's latencies and the gateway's ratios, with PASS/MISS against the targets. */
export function gatewayLatencyLines(result: GatewayLatency): string[] {
  const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(9);
  const lines = [`  ${result.calls} calls per path, alternating, after a warm-up`];
  for (const row of result.rows) {
    lines.push(`  ${row.revision} ${row.response.toUpperCase()} responses`);
    for (const key of ['direct', 'passthrough', 'gateway'] as const) {
      lines.push(`    ${key.padEnd(12)} p50 ${ms(row[key].p50Ms)}  p99 ${ms(row[key].p99Ms)}`);
    }
  }
  return lines;
}

/** The summary lines: gateway / direct against the targets (PASS/MISS), and gateway / passthrough for context. */
export function gatewayLatencySummary(result: GatewayLatency): string[] {
  const verdict = (ratio: number, target: number) => `${ratio.toFixed(2)}x ${ratio <= target ? 'PASS' : 'MISS'}`;
  return result.rows.map((row) => {
    const p50 = row.gateway.p50Ms / row.direct.p50Ms;
    const p99 = row.gateway.p99Ms / row.direct.p99Ms;
    const floor50 = row.gateway.p50Ms / row.passthrough.p50Ms;
    const floor99 = row.gateway.p99Ms / row.passthrough.p99Ms;
    return (
      `  ${row.revision} ${row.response.padEnd(4)} vs direct: p50 ${verdict(p50, latencyTargets.p50)}  p99 ${verdict(p99, latencyTargets.p99)}` +
      `   vs passthrough Worker: p50 ${floor50.toFixed(2)}x  p99 ${floor99.toFixed(2)}x`
    );
  });
}
