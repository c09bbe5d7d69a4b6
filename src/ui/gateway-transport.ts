// What both of the page's MCP clients share towards the gateway: the connect options, the gateway's refusals as
// errors with a code, the fetch that reads them, and the request headers the person entered.
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { SchemaValidationOptions, Validator } from '../host/browser.ts';
import type { ElicitationRequest } from './elicitation-dialog.ts';

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

export const connectError = (code: ConnectErrorCode, message: string): Error & { code: ConnectErrorCode } =>
  Object.assign(new Error(message), { code });

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
export async function gatewayFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
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

/** The person's headers for this server, on every request its transport makes. */
export const requestInit = (options: ConnectOptions): RequestInit => ({ headers: { ...options.headers } });

/**
 * The SDK clients' own output checks are left to the page's worker (a warning): they pass all. So neither client
 * builds its default validator (ajv on the v1 path), and no second schema engine runs on the page's main thread.
 */
export const passThrough = {
  getValidator: () => (input: unknown) => ({ valid: true as const, data: input as never, errorMessage: undefined }),
};
