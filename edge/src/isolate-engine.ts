import { createEngine } from '../../src/engine/index.ts';

/**
 * The engine of this isolate, shared by the HTTP app and the RPC entrypoint: created once at module scope (it does
 * no I/O), so its LRU keeps compiled validators and refusals across requests for as long as the isolate lives.
 */
export const isolateEngine = createEngine();
