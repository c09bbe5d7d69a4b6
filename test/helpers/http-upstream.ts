// The fixture server behind the SDK's web-standard Streamable HTTP transport, one SDK Server per session; callable
// in process (`handle`) or listening on 127.0.0.1 (`listen`).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { createFixtureServer, type Fixture, tools as fixtureTools } from './mcp-fixture.ts';

export interface Upstream {
  readonly seen: Fixture['seen'];
  handle(request: Request): Promise<Response>;
  /** Serves on 127.0.0.1 and returns the MCP endpoint URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function createUpstream(options: { list?: Tool[]; pageSize?: number } = {}): Upstream {
  const list = options.list ?? fixtureTools;
  const seen: Fixture['seen'] = { calls: [], lists: 0, elicitations: [] };
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  let served: ServedHandler | undefined;

  const handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    const existing = id === null ? undefined : sessions.get(id);
    if (existing !== undefined) return existing.handleRequest(request);
    if (id !== null) return new Response('unknown session', { status: 404 });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    await createFixtureServer(list, options.pageSize ?? list.length, seen).connect(transport);
    return transport.handleRequest(request);
  };

  return {
    seen,
    handle,
    listen: async () => {
      served = await serveFetchHandler(handle);
      return `${served.origin}/mcp`;
    },
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      await served?.close();
    },
  };
}
