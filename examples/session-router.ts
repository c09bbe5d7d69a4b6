// One SDK Server per MCP session behind the web-standard Streamable HTTP transport, routed by Mcp-Session-Id.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export interface SessionRouter {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** `createServer` makes a fresh SDK Server for each new session; `enableJsonResponse` answers POSTs with JSON, not SSE. */
export function createSessionRouter(createServer: () => Server, options: { enableJsonResponse?: boolean } = {}): SessionRouter {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return {
    async handle(request) {
      const id = request.headers.get('mcp-session-id');
      const existing = id === null ? undefined : sessions.get(id);
      if (existing !== undefined) return existing.handleRequest(request);
      if (id !== null) return new Response('unknown session', { status: 404 });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...(options.enableJsonResponse === true ? { enableJsonResponse: true } : {}),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, transport);
        },
      });
      await createServer().connect(transport);
      return transport.handleRequest(request);
    },
    async close() {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
    },
  };
}
