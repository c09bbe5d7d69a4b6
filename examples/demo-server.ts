// The demo's upstream MCP server on 127.0.0.1 (Streamable HTTP, one SDK Server per session). It records what it
// receives at GET /received, so a test can check what reached it.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { demoTools, signUpForm } from './demo-tools.ts';
import { serveFetchHandler } from './serve-fetch-handler.ts';
import { createSessionRouter } from './session-router.ts';

export interface DemoServer {
  readonly url: string;
  close(): Promise<void>;
}

/** What reached the server: tool calls and elicitation answers. */
const received: { calls: { name: string; arguments: unknown }[]; elicitations: unknown[] } = { calls: [], elicitations: [] };

function createMcpServer(): Server {
  const server = new Server({ name: 'schemaval-demo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: demoTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    received.calls.push({ name: request.params.name, arguments: args });
    switch (request.params.name) {
      case 'get_weather': {
        const city = String(args.city);
        const temperature = args.units === 'imperial' ? 70 : 21;
        return {
          content: [{ type: 'text', text: `${city}: ${temperature}°, clear` }],
          structuredContent: { city, temperature, conditions: 'clear' },
        };
      }
      case 'sign_up': {
        try {
          const answer = await server.elicitInput({ mode: 'form', message: 'Sign up for the demo', requestedSchema: signUpForm as never });
          received.elicitations.push(answer);
          return { content: [{ type: 'text', text: `elicitation ${answer.action}: ${JSON.stringify(answer.content ?? {})}` }] };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          received.elicitations.push({ error: message });
          return { content: [{ type: 'text', text: `elicitation failed: ${message}` }], isError: true };
        }
      }
      case 'legacy_lookup': {
        // A legacy backend: `id` comes back as a number although outputSchema says string (a warning, by default).
        const id = Number.parseInt(String(args.id ?? '0'), 10) || 0;
        return { content: [{ type: 'text', text: `record ${id}: Ada` }], structuredContent: { id, name: 'Ada' } };
      }
      default:
        return { content: [{ type: 'text', text: `${request.params.name} ran with ${JSON.stringify(args)}` }] };
    }
  });
  return server;
}

/** Starts the demo server on 127.0.0.1 (port 0 = any free port). */
export async function startDemoServer(port = 0): Promise<DemoServer> {
  const router = createSessionRouter(createMcpServer);
  const handle = (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/received') return Promise.resolve(Response.json(received));
    if (url.pathname !== '/mcp') return Promise.resolve(new Response('not found', { status: 404 }));
    return router.handle(request);
  };
  const served = await serveFetchHandler(handle, port);
  return {
    url: `${served.origin}/mcp`,
    close: async () => {
      await router.close();
      await served.close();
    },
  };
}
