// The 2025-11-25 connection (the v1 SDK client and the zod schemas it parses with): a chunk of its own that
// connect.ts imports on connect, so the page paints without it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createIdbVerdictCache, withSchemaValidation } from '../host/browser.ts';
import { type ConnectOptions, gatewayFetch, passThrough, requestInit } from './gateway-transport.ts';
import type { PageClient } from './modern-client.ts';

/** The v1 SDK client (2025-11-25, tool verdicts kept in IndexedDB) over Streamable HTTP, every schema enforced by the validator. */
export async function connectLegacy(url: URL, options: ConnectOptions): Promise<PageClient> {
  const { validator } = options;
  const client = withSchemaValidation(
    new Client(
      { name: 'schemaval-demo-page', version: '0.1.0' },
      { capabilities: { elicitation: { form: {} } }, jsonSchemaValidator: passThrough },
    ),
    { validator, cache: createIdbVerdictCache(), onWarning: options.onWarning, onVerdicts: options.onVerdicts },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    return options.elicit({ message: params.message, requestedSchema: params.requestedSchema }, extra.signal);
  });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: gatewayFetch, requestInit: requestInit(options) }));
  return Object.assign(client, { revision: '2025-11-25' as const });
}
