// The page's connection to a server that speaks only MCP 2026-07-28: the v2 SDK client, loaded on first use (its
// own chunk of the bundle), so a page that only meets 2025-11-25 servers never downloads it.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { withElicitationValidation } from '../host/browser.ts';
import { listAsSent } from '../mcp/list-as-sent.ts';
import { type ConnectOptions, gatewayFetch, passThrough, requestInit } from './gateway-transport.ts';
import { type PageClient, withModernValidation } from './modern-client.ts';

export async function connectModern(url: URL, options: ConnectOptions): Promise<PageClient> {
  const client = withElicitationValidation(
    new ModernClient(
      { name: 'schemaval-demo-page', version: '0.1.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        jsonSchemaValidator: passThrough,
      },
    ),
    { validator: options.validator },
  );
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    const signal = (ctx as { mcpReq?: { signal?: AbortSignal } }).mcpReq?.signal ?? new AbortController().signal;
    return (await options.elicit({ message: params.message, requestedSchema: params.requestedSchema }, signal)) as never;
  });
  const transport = new ModernTransport(url, { fetch: gatewayFetch, requestInit: requestInit(options) });
  await client.connect(transport);
  listAsSent(transport);
  return withModernValidation(client, options);
}
