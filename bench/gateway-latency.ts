// Section 6: the /mcp gateway under wrangler dev (real workerd) against calling the upstream directly, on loopback.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startWranglerDev } from '../edge/test/helpers/wrangler-dev.ts';
import { createUpstream } from '../test/helpers/http-upstream.ts';
import { median } from './harness.ts';

export interface LatencySummary {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface GatewayLatency {
  readonly calls: number;
  readonly direct: LatencySummary;
  readonly gateway: LatencySummary;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** A bounded loop of `calls` tools/call per path, alternating, after a warm-up; loopback only. */
export async function measureGatewayLatency(calls = 300): Promise<GatewayLatency> {
  const upstream = createUpstream();
  const upstreamUrl = await upstream.listen();
  const dev = await startWranglerDev({ UPSTREAM_MCP_URL: upstreamUrl });
  const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  const gated = new Client({ name: 'bench-gateway', version: '1.0.0' });
  try {
    await direct.connect(new StreamableHTTPClientTransport(new URL(upstreamUrl)));
    await gated.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`)));
    await gated.listTools();
    const call = (client: Client) =>
      client.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, CallToolResultSchema);
    for (let i = 0; i < 30; i++) await Promise.all([call(direct), call(gated)].map((p) => p.catch(() => undefined)));
    const times = { direct: [] as number[], gateway: [] as number[] };
    for (let i = 0; i < calls; i++) {
      for (const [key, client] of [
        ['direct', direct],
        ['gateway', gated],
      ] as const) {
        const started = performance.now();
        await call(client);
        times[key].push(performance.now() - started);
      }
    }
    const summary = (values: number[]): LatencySummary => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50Ms: median(sorted), p99Ms: percentile(sorted, 99) };
    };
    return { calls, direct: summary(times.direct), gateway: summary(times.gateway) };
  } finally {
    await direct.close().catch(() => undefined);
    await gated.close().catch(() => undefined);
    await dev.stop();
    await upstream.close();
  }
}
