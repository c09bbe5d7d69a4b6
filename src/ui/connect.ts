import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createIdbVerdictCache,
  type SchemaValidationOptions,
  type Validator,
  withElicitationValidation,
  withSchemaValidation,
} from '../host/browser.ts';
import { listAsSent } from '../mcp/list-as-sent.ts';
import type { ElicitationRequest } from './elicitation-dialog.ts';
import { type PageClient, withModernValidation } from './modern-client.ts';

export interface ConnectOptions {
  /** The gateway's MCP endpoint (the page's own origin, `/mcp`). */
  readonly url: URL;
  /** The MCP server to reach through the gateway (`/mcp?upstream=…`); empty: the gateway's default (the demo server). */
  readonly server?: string;
  /** Extra headers for that server's requests (`Authorization`), which the gateway passes on; never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Runs every check (in a Web Worker: `createValidator({ spawn: spawnBrowserWorker(url) })`). */
  readonly validator: Validator;
  readonly onWarning: NonNullable<SchemaValidationOptions['onWarning']>;
  readonly onVerdicts: NonNullable<SchemaValidationOptions['onVerdicts']>;
  /** Asks the person a form-mode elicitation; the answer is checked again by the adapter before it is sent. */
  readonly elicit: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
}

/** Why the page could not connect, as a stable code (the gateway's `data.code` where it gave one). */
export type ConnectErrorCode = 'invalid_server_url' | 'gateway_unreachable' | 'upstream_not_allowed' | 'upstream_not_configured';

/** The gateway refuses a server off its allow-list before any fetch (edge/src/gateway/gateway-router.ts). */
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
 * Whether this is the v1 transport opening the optional standalone SSE stream (a GET) outside any session. A server
 * that gave no `Mcp-Session-Id` (a stateless one) has no way to address that stream to this client and answers 405,
 * which the browser logs as an error on every connect; the page answers it itself, as the SDK reads "no stream". In a
 * session the GET goes out: the demo server sends its elicitations on it.
 */
function sessionlessStream(input: RequestInfo | URL, init?: RequestInit): boolean {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  if (method.toUpperCase() !== 'GET') return false;
  return !new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).has('mcp-session-id');
}

/**
 * The page's fetch towards the gateway: a refused upstream (403/400 with the gateway's `data.code`) becomes an error
 * with that code and message, and a gateway that cannot be reached says so, instead of the SDK's raw HTTP text.
 */
async function gatewayFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (sessionlessStream(input, init)) return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
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
  const message = inWords(error instanceof Error ? error.message.replace(/^MCP error -?\d+: /, '') : String(error), named);
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

/**
 * An SDK message in one line for a person: its check of a result ("Invalid result for tools/list: [{…zod issues…}]")
 * said in words, without the dump, and any other message on one line of at most 300 characters.
 */
function inWords(message: string, named: string): string {
  const invalid = /^(?:.*?: )?Invalid result for ([\w/]+)\b/.exec(message);
  if (invalid !== null) return `${named} sent a ${invalid[1]} answer that is not valid MCP, so the page cannot use it`;
  // The v1 SDK throws a bare ZodError: its message is the issue list as JSON.
  if (/^\s*\[\s*\{[\s\S]*"code"[\s\S]*"path"/.test(message))
    return `${named} sent an answer that is not valid MCP, so the page cannot use it`;
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The server refused the 2025-11-25 `initialize` as an unsupported revision (-32022): it may speak only 2026-07-28. */
export function refusedLegacyRevision(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /-32022|Unsupported protocol version/i.test(message);
}

/**
 * An MCP client over Streamable HTTP that enforces every schema through `validator`. First the v1 SDK client
 * (2025-11-25, tool verdicts kept in IndexedDB); if the server refuses that revision, the v2 client pinned to
 * 2026-07-28 (stateless, elicitation as MRTR rounds), with the same checks (`modern-client.ts`).
 */
export async function connect(options: ConnectOptions): Promise<PageClient> {
  const url = gatewayUrl(options.url, options.server);
  try {
    return await connectLegacy(url, options);
  } catch (error) {
    if (!refusedLegacyRevision(error)) throw error;
    try {
      return await connectModern(url, options);
    } catch {
      throw error; // Neither revision: the server's own answer to the first attempt says most.
    }
  }
}

/** The person's headers for this server, on every request its transport makes. */
const requestInit = (options: ConnectOptions): RequestInit => ({ headers: { ...options.headers } });

async function connectLegacy(url: URL, options: ConnectOptions): Promise<PageClient> {
  const { validator } = options;
  const client = withSchemaValidation(
    new Client({ name: 'schemaval-demo-page', version: '0.1.0' }, { capabilities: { elicitation: { form: {} } } }),
    { validator, cache: createIdbVerdictCache(), onWarning: options.onWarning, onVerdicts: options.onVerdicts },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    return options.elicit({ message: params.message, requestedSchema: params.requestedSchema }, extra.signal);
  });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: gatewayFetch, requestInit: requestInit(options) }));
  return Object.assign(client, { revision: '2025-11-25' as const });
}

/** The v2 client's own output check is left to the page's worker (a warning, as on the v1 path): it passes all. */
const passThrough = { getValidator: () => (input: unknown) => ({ valid: true as const, data: input as never, errorMessage: undefined }) };

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
