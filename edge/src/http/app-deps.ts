import type { Context, Env as HonoEnv } from 'hono';
import type { Engine } from '../../../src/engine/index.ts';

/** A Hono handler for `/mcp` (the gateway), with the app's bindings. */
export type McpHandler<E extends HonoEnv> = (c: Context<E>) => Response | Promise<Response>;

/** Everything the HTTP app needs, injected so tests build it without workerd or env. */
export interface AppDeps<E extends HonoEnv> {
  /** Shared across requests: its LRU keeps compiled validators (and refusals) for the isolate's lifetime. */
  readonly engine: Engine;
  /** Browser origins that get CORS headers (`*`: any). Default: none. */
  readonly corsOrigins?: readonly string[];
  /** Largest accepted request body in bytes. Default: `defaultMaxBodyBytes(engine.policy)`. */
  readonly maxBodyBytes?: number;
  /** Mounted on `/mcp` when present; otherwise `/mcp` is a 404. */
  readonly mcp?: McpHandler<E>;
}
