import { type ConnectOptions, connectError } from './gateway-transport.ts';
import type { PageClient } from './modern-client.ts';

export type { ConnectErrorCode, ConnectOptions } from './gateway-transport.ts';

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
    // The v1 client and its zod schemas are a chunk too: the first paint needs neither (docs/ui.md#source).
    const { connectLegacy } = await import('./connect-legacy.ts');
    return await connectLegacy(url, options);
  } catch (error) {
    if (!refusedLegacyRevision(error)) throw error;
    try {
      // The v2 client is its own chunk: loaded only for a server that refused 2025-11-25.
      const { connectModern } = await import('./connect-modern.ts');
      return await connectModern(url, options);
    } catch {
      throw error; // Neither revision: the server's own answer to the first attempt says most.
    }
  }
}
