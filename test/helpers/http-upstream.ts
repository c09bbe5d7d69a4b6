// The fixture server behind the SDK's web-standard Streamable HTTP transport, one SDK Server per session; callable
// in process (`handle`) or listening on 127.0.0.1 (`listen`).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { createSessionRouter } from '../../examples/session-router.ts';
import { createFixtureServer, type Fixture, tools as fixtureTools } from './mcp-fixture.ts';

export interface Upstream {
  readonly seen: Fixture['seen'];
  handle(request: Request): Promise<Response>;
  /** Serves on 127.0.0.1 and returns the MCP endpoint URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** `json`: answer POSTs with `application/json` instead of an SSE stream (the SDK's `enableJsonResponse`). */
export function createUpstream(options: { list?: Tool[]; pageSize?: number; json?: boolean } = {}): Upstream {
  const list = options.list ?? fixtureTools;
  const seen: Fixture['seen'] = { calls: [], lists: 0, elicitations: [] };
  const router = createSessionRouter(() => createFixtureServer(list, options.pageSize ?? list.length, seen), {
    enableJsonResponse: options.json === true,
  });
  let served: ServedHandler | undefined;
  const handle = (request: Request): Promise<Response> => router.handle(request);

  return {
    seen,
    handle,
    listen: async () => {
      served = await serveFetchHandler(handle);
      return `${served.origin}/mcp`;
    },
    close: async () => {
      await router.close();
      await served?.close();
    },
  };
}
