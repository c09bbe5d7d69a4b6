import type { LaneBatch } from '../wire/index.ts';
import type { ListenLane } from './create-worker-api.ts';
import { batchMayHavePatterns } from './request-patterns.ts';

/**
 * A browser lane listener for a worker whose linear-time matcher is loaded on demand (`load`): a batch that may
 * compile a pattern waits until `load` has settled, and every batch after it waits its turn, so answers keep the
 * host's order. The engine is synchronous and cannot wait itself. When `load` fails, the batch runs anyway: the
 * engine then fails each request that needs the matcher (`LINEAR_PATTERNS_UNAVAILABLE`) and answers the others, and
 * the next batch with a pattern tries loading again.
 */
export function listenPatternsFirst(load: () => Promise<void>): ListenLane {
  let loaded = false;
  return (lane, onMessage) => {
    const waiting: unknown[] = [];
    let loading = false;
    const settle = (): void => {
      loading = false;
      for (const data of waiting.splice(0)) onMessage(data);
    };
    const deliver = (data: unknown): void => {
      if (!loading && (loaded || !batchMayHavePatterns(data as LaneBatch))) {
        onMessage(data);
        return;
      }
      waiting.push(data);
      if (loading) return;
      loading = true;
      load().then(() => {
        loaded = true;
        settle();
      }, settle);
    };
    (lane as unknown as MessagePort).onmessage = (event: MessageEvent) => deliver(event.data);
  };
}
