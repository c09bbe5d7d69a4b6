/**
 * The MCP revisions the gateway speaks, decided per request: `2025-11-25` (an `initialize` handshake, then a
 * session named by `Mcp-Session-Id`) and `2026-07-28` (stateless: every request carries its revision and the
 * client's capabilities in `_meta`, and the `MCP-Protocol-Version` header). Later dated revisions are taken as
 * stateless too; anything older, or no revision at all, as the session era.
 */
export type ProtocolRevision = '2025-11-25' | '2026-07-28';

/** The `_meta` keys a 2026-07-28 request carries (basic/index#_meta). */
export const protocolVersionMeta = 'io.modelcontextprotocol/protocolVersion';
export const clientCapabilitiesMeta = 'io.modelcontextprotocol/clientCapabilities';
export const clientInfoMeta = 'io.modelcontextprotocol/clientInfo';

const stateless = '2026-07-28';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRevision = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The revision `_meta` names in a request's params, if any. */
export function metaRevision(message: unknown): string | undefined {
  const params = isObject(message) ? message.params : undefined;
  const meta = isObject(params) ? params._meta : undefined;
  const version = isObject(meta) ? meta[protocolVersionMeta] : undefined;
  return isRevision(version) ? version : undefined;
}

/**
 * The revision of one request: the body's `_meta` (what the upstream acts on) first, else the
 * `MCP-Protocol-Version` header (a body-less GET or DELETE, a notification). A header that disagrees with the body
 * is the upstream's to refuse (`HeaderMismatch`); the gateway follows the body.
 */
export function requestRevision(headers: Headers, message?: unknown): ProtocolRevision {
  const version = metaRevision(message) ?? headers.get('mcp-protocol-version')?.trim();
  return isRevision(version) && version >= stateless ? '2026-07-28' : '2025-11-25';
}

/**
 * The session part of the gateway's state key: the `Mcp-Session-Id` in the session era; none in the stateless
 * one, whose requests must not be tied to a session (the header, if sent, is ignored as the spec says), so their
 * state is per credential scope only.
 */
export function sessionKeyFor(revision: ProtocolRevision, headers: Headers): string {
  return revision === '2026-07-28' ? 'stateless' : (headers.get('mcp-session-id') ?? 'stateless');
}

/**
 * Headers and `_meta` for a request the gateway makes itself within a client's request (its own `tools/list`):
 * the mirrored `Mcp-Method` / `Mcp-Name` headers must describe the gateway's request, not the client's, and a
 * stateless request needs the client's revision, identity and capabilities in its own `_meta`.
 */
export function ownRequest(
  headers: Headers,
  clientMessage: unknown,
  method: string,
  params: Record<string, unknown>,
): { headers: Headers; params: Record<string, unknown> } {
  const own = new Headers(headers);
  own.delete('mcp-name');
  for (const key of [...own.keys()]) if (key.startsWith('mcp-param-')) own.delete(key);
  if (own.has('mcp-method')) own.set('mcp-method', method);
  if (metaRevision(clientMessage) === undefined) return { headers: own, params };
  own.set('mcp-method', method);
  const clientMeta = (clientMessage as { params: { _meta: Record<string, unknown> } }).params._meta;
  const meta: Record<string, unknown> = {};
  for (const key of [protocolVersionMeta, clientInfoMeta, clientCapabilitiesMeta]) if (key in clientMeta) meta[key] = clientMeta[key];
  return { headers: own, params: { ...params, _meta: meta } };
}
