import { createEngine } from '../../src/engine/index.ts';

/**
 * The engine of this isolate, shared by the HTTP app and the RPC entrypoint: created once at module scope (it does
 * no I/O), so its LRU keeps compiled validators and refusals across requests for as long as the isolate lives.
 */
// A Worker isolate has 128 MB: keep compiled schemas to an estimated 32 MiB.
export const isolateEngine = createEngine({ maxCacheBytes: 32 * 1024 * 1024 });
