import { createEngine } from '../../../src/engine/index.ts';

const mib = 1024 * 1024;

/**
 * What each cache of a Worker isolate may retain, in bytes: a Worker isolate has 128 MB, and the caches together must
 * leave room to serve (docs/edge.md, "Memory budget", sums them with the engine's pattern cache). `engine` is the
 * engine's `maxCacheBytes`, which bounds its compiled-schema LRU and, separately, its compiled-tool LRU (a tool holds
 * its compiled schemas, so the two overlap but may hold up to twice this); `toolCache` is the gateway's tool verdicts
 * and definitions (`createToolCache`).
 */
export const isolateCacheBytes = { engine: 12 * mib, toolCache: 8 * mib, maxCompiledSchema: 8 * mib } as const;

/**
 * The engine of this isolate, shared by the HTTP app and the RPC entrypoint: created once at module scope (it does
 * no I/O), so its LRU keeps compiled validators and refusals across requests for as long as the isolate lives.
 */
export const isolateEngine = createEngine({
  maxCacheBytes: isolateCacheBytes.engine,
  // One compiled schema may stay past the cap as the newest entry: 8 MiB keeps that within the budget and still
  // admits the largest real-world schema we hold (~4.8 MB retained).
  policy: { maxCompiledBytes: isolateCacheBytes.maxCompiledSchema },
});
