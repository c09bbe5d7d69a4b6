// An SDK v1 Client connected to a gateway handler in process (no socket), sending `authorization` on every request.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectToGateway(gateway: (request: Request) => Promise<Response>, authorization: string): Promise<Client> {
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
      requestInit: { headers: { authorization } },
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway(new Request(input, init))) as typeof fetch,
    }),
  );
  return client;
}
