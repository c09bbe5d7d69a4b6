// The edge under `wrangler dev` in front of issue #17's hostile list upstream: one setup for the attacker tests
// (edge/test/workerd/wrangler-bounds.test.ts) and their benchmark (bench/edge-attack.ts), so both measure the same thing.
import {
  bulkyTools,
  createListUpstream,
  type ListUpstream,
  longNameTools,
  patternTools,
  tinyTools,
} from '../../../test/fixtures/hostile-bounds.ts';
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts';

/** What one credential (the bearer token) is listed, besides the defaults; `default` answers any other token. */
export type UpstreamLists = Record<string, readonly unknown[]>;

export interface HostileEdge {
  readonly upstream: ListUpstream;
  readonly dev: WranglerDev;
  stop(): Promise<void>;
}

/**
 * Starts the list upstream (per token: `patterns`, `bulky`, `medium` (16 × 233 KB: a list the caches keep), `tiny`
 * 10,000 tools, `long` names, and `extra`) and
 * `wrangler dev` pointed at it, with a 10 s upstream timeout so a slow list is measured rather than cut off.
 */
export async function startHostileEdge(extra: UpstreamLists = {}): Promise<HostileEdge> {
  const upstream = await createListUpstream({
    patterns: patternTools(),
    bulky: bulkyTools(),
    tiny: tinyTools(10_000),
    long: longNameTools(),
    // Under the upstream's 4 MiB and a state key's 8 MiB: accepted and cached, so forged sessions fill the caches.
    medium: bulkyTools(16, 233 * 1024, 'medium'),
    default: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    ...extra,
  });
  let dev: WranglerDev;
  try {
    dev = await startWranglerDev({ UPSTREAM_MCP_URL: await upstream.listen(), UPSTREAM_TIMEOUT_MS: '10000' });
  } catch (error) {
    await upstream.close();
    throw error;
  }
  return {
    upstream,
    dev,
    async stop() {
      await dev.stop();
      await upstream.close();
    },
  };
}
