import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createIdbVerdictCache, type SchemaValidationOptions, type Validator, withSchemaValidation } from '../host/browser.ts';
import type { ElicitationRequest } from './elicitation-dialog.ts';

export interface ConnectOptions {
  /** The gateway's MCP endpoint (the page's own origin, `/mcp`). */
  readonly url: URL;
  /** The MCP server to reach through the gateway (`/mcp?upstream=…`); empty: the gateway's default (the demo server). */
  readonly server?: string;
  /** Runs every check (in a Web Worker: `createValidator({ spawn: spawnBrowserWorker(url) })`). */
  readonly validator: Validator;
  readonly onWarning: NonNullable<SchemaValidationOptions['onWarning']>;
  readonly onVerdicts: NonNullable<SchemaValidationOptions['onVerdicts']>;
  /** Asks the person a form-mode elicitation; the answer is checked again by the adapter before it is sent. */
  readonly elicit: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
}

/** Why the page could not connect, as a stable code (the gateway's `data.code` where it gave one). */
export type ConnectErrorCode = 'invalid_server_url' | 'gateway_unreachable' | 'upstream_not_allowed' | 'upstream_not_configured';

/** The gateway refuses a server off its allow-list before any fetch (edge/src/gateway-router.ts). */
const refusalCodes: readonly string[] = ['upstream_not_allowed', 'upstream_not_configured'];

const connectError = (code: ConnectErrorCode, message: string): Error & { code: ConnectErrorCode } =>
  Object.assign(new Error(message), { code });

/** The gateway endpoint that reaches `server`; throws `invalid_server_url` for anything but an http(s) URL. */
export function gatewayUrl(gateway: URL, server = ''): URL {
  const url = new URL(gateway);
  if (server === '') return url;
  const target = URL.canParse(server) ? new URL(server) : null;
  if (target === null || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    throw connectError(
      'invalid_server_url',
      `Enter the server's http(s) MCP endpoint, such as http://127.0.0.1:3001/mcp (got "${server}")`,
    );
  }
  url.searchParams.set('upstream', target.href);
  return url;
}

/**
 * The page's fetch towards the gateway: a refused upstream (403/400 with the gateway's `data.code`) becomes an error
 * with that code and message, and a gateway that cannot be reached says so, instead of the SDK's raw HTTP text.
 */
async function gatewayFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (init?.signal?.aborted) throw error;
    throw connectError('gateway_unreachable', 'The page could not reach its gateway (/mcp): is the edge running?');
  }
  if (response.status === 403 || response.status === 400) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: { message?: unknown; data?: { code?: unknown } } } | undefined;
    const code = body?.error?.data?.code;
    if (typeof code === 'string' && refusalCodes.includes(code)) {
      throw connectError(code as ConnectErrorCode, String(body?.error?.message ?? code));
    }
  }
  return response;
}

/** What to tell the person when `connect` failed: the gateway's reason, phrased for the server they named. */
export function describeConnectError(error: unknown, server: string): string {
  const named = server === '' ? 'the demo server' : server;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string' && ['invalid_server_url', 'gateway_unreachable', 'upstream_not_configured'].includes(own)) {
    return (error as Error).message;
  }
  if (own === 'upstream_not_allowed') {
    return `${named} is not on the gateway's allow-list (ALLOWED_UPSTREAMS), so it was not contacted. Add it to the list to connect (docs/ui.md).`;
  }
  const code = (error as { data?: { code?: unknown } }).data?.code;
  const message = error instanceof Error ? error.message.replace(/^MCP error -?\d+: /, '') : String(error);
  switch (code) {
    case 'upstream_unreachable':
      return `The gateway could not reach ${named}: is it running, and is this its MCP endpoint?`;
    case 'upstream_timeout':
      return `${named} did not answer in time (${message}).`;
    case undefined:
      return message;
    default:
      return `${named}: ${message} (${String(code)})`;
  }
}

/** An MCP client over Streamable HTTP that enforces every schema through `validator`, tool verdicts kept in IndexedDB. */
export async function connect(options: ConnectOptions): Promise<Client> {
  const { validator } = options;
  const url = gatewayUrl(options.url, options.server);
  const client = withSchemaValidation(
    new Client({ name: 'schemaval-demo-page', version: '0.1.0' }, { capabilities: { elicitation: { form: {} } } }),
    { validator, cache: createIdbVerdictCache(), onWarning: options.onWarning, onVerdicts: options.onVerdicts },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    return options.elicit({ message: params.message, requestedSchema: params.requestedSchema }, extra.signal);
  });
  // The v1 SDK client speaks 2025-11-25; a 2026-07-28 server answers it too (docs/ui.md, "Any MCP server").
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: gatewayFetch }));
  return client;
}
