// A small MCP server of its own for the "connect to any server" tests (not the demo): a 2026-07-28 server on the v2
// SDK (`createMcpHandler`, which answers 2025-11-25 clients too unless `legacy: 'reject'`), with one admitted tool and
// two a strict host refuses.
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';

export interface SecondServer {
  /** Every tools/call that reached it. */
  readonly calls: { readonly name: string; readonly arguments: unknown }[];
  /** HTTP requests received, of any kind. */
  requests(): number;
  /** Serves on 127.0.0.1 (`port` 0: any free one) and returns the MCP endpoint URL. */
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
}

export const secondServerTools = [
  {
    name: 'lookup',
    title: 'Look up a word',
    inputSchema: {
      type: 'object',
      properties: { word: { type: 'string', pattern: '^[a-z]+$', minLength: 1 } },
      required: ['word'],
      additionalProperties: false,
    },
  },
  {
    // A backreference: a backtracking engine can take exponential time on it, and the linear-time matcher cannot run it.
    name: 'repeat_check',
    inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(\\w+)\\s\\1$' } }, required: ['q'] },
  },
  {
    name: 'fetch_remote',
    inputSchema: { type: 'object', properties: { item: { $ref: 'https://schemas.example.net/item.json' } } },
  },
];

export interface SecondServerOptions {
  /** `'reject'`: a 2026-07-28-only server, which refuses 2025-era requests (`initialize`); default `'stateless'`. */
  readonly legacy?: 'stateless' | 'reject';
}

export function createSecondServer(options: SecondServerOptions = {}): SecondServer {
  const calls: SecondServer['calls'] = [];
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'second-server', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: secondServerTools as never }));
      server.setRequestHandler('tools/call', async (request) => {
        calls.push({ name: request.params.name, arguments: request.params.arguments });
        const word = String((request.params.arguments as { word?: unknown } | undefined)?.word);
        return { content: [{ type: 'text', text: `${word}: found on the second server` }] };
      });
      return server;
    },
    { legacy: options.legacy ?? 'stateless' },
  );
  let served: ServedHandler | undefined;
  let requests = 0;
  return {
    calls,
    requests: () => requests,
    listen: async (port = 0) => {
      served = await serveFetchHandler((request) => {
        requests++;
        return handler.fetch(request);
      }, port);
      return `${served.origin}/mcp`;
    },
    close: async () => {
      const open = served;
      served = undefined;
      if (open === undefined) return;
      await handler.close();
      await open.close();
    },
  };
}
