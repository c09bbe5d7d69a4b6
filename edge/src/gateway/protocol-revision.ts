/**
 * The MCP revisions the gateway speaks, decided per request: `2025-11-25` (an `initialize` handshake, then a
 * session named by `Mcp-Session-Id`) and `2026-07-28` (stateless: every request carries its revision and the
 * client's capabilities in `_meta`, and the `MCP-Protocol-Version` header). Later dated revisions are taken as
 * stateless too; anything older, or no revision at all, as the session era.
 */
import { isJsonObject } from '../../../src/engine/json/index.ts';

export type ProtocolRevision = '2025-11-25' | '2026-07-28';

/** The `_meta` keys a 2026-07-28 request carries (basic/index#_meta). */
export const protocolVersionMeta = 'io.modelcontextprotocol/protocolVersion';
export const clientCapabilitiesMeta = 'io.modelcontextprotocol/clientCapabilities';
export const clientInfoMeta = 'io.modelcontextprotocol/clientInfo';

const stateless = '2026-07-28';
const isRevision = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The revision `_meta` names in a request's params, if any. */
export function metaRevision(message: unknown): string | undefined {
  const params = isJsonObject(message) ? message.params : undefined;
  const meta = isJsonObject(params) ? params._meta : undefined;
  const version = isJsonObject(meta) ? meta[protocolVersionMeta] : undefined;
  return isRevision(version) ? version : undefined;
}

/** A request's one revision, or why it has none: its header and its body name different ones. */
export type RevisionDecision =
  | { readonly ok: true; readonly revision: ProtocolRevision }
  | { readonly ok: false; readonly code: 'protocol_version_mismatch'; readonly message: string };

const revisionOf = (version: string): ProtocolRevision => (version >= stateless ? '2026-07-28' : '2025-11-25');

/** The revision of a request without a body (GET, DELETE): its `MCP-Protocol-Version` header's. */
export function headerRevision(headers: Headers): ProtocolRevision {
  const header = headers.get('mcp-protocol-version')?.trim();
  return isRevision(header) ? revisionOf(header) : '2025-11-25';
}

/**
 * The revision of one request with a body, from one source, for the state key and every check alike (docs/edge.md, "Protocol
 * revisions"): the body's `_meta` claim decides, and a header that is sent must name the same revision; a body without a claim (a session-era request,
 * a posted response) is 2025-11-25, so a header naming 2026-07-28 or later disagrees with it. Only a notification
 * without a claim takes the header's. A disagreement, or a claim that is not a `YYYY-MM-DD` string, is refused: the
 * gateway would otherwise key and check the request by one revision while the upstream acts on the other.
 */
export function requestRevision(headers: Headers, message: unknown): RevisionDecision {
  const header = headers.get('mcp-protocol-version')?.trim() || undefined;
  const modernHeader = header !== undefined && isRevision(header) && header >= stateless;
  const params = isJsonObject(message) ? message.params : undefined;
  const meta = isJsonObject(params) ? params._meta : undefined;
  if (isJsonObject(meta) && protocolVersionMeta in meta) {
    const claim = meta[protocolVersionMeta];
    if (!isRevision(claim)) return mismatch(`the body's _meta["${protocolVersionMeta}"] is not a protocol revision`);
    if (header !== undefined && header !== claim)
      return mismatch(`the body names protocol version ${claim} but the MCP-Protocol-Version header names ${header}`);
    return { ok: true, revision: revisionOf(claim) };
  }
  const notification = isJsonObject(message) && typeof message.method === 'string' && !('id' in message);
  if (modernHeader && !notification)
    return mismatch(`the MCP-Protocol-Version header names ${header}, but the body carries no _meta["${protocolVersionMeta}"]`);
  return { ok: true, revision: modernHeader ? '2026-07-28' : '2025-11-25' };
}

function mismatch(message: string): RevisionDecision {
  return { ok: false, code: 'protocol_version_mismatch', message: `${message}; the request was not sent` };
}

/**
 * The session part of the gateway's state key: the upstream's session id (unsealed, session-gate.ts) in the session
 * era; none in the stateless one, whose requests must not be tied to a session (the header, if sent, is ignored as
 * the spec says), so their state is per credential scope only.
 */
export function sessionKeyFor(revision: ProtocolRevision, upstreamSessionId: string | null): string {
  return revision === '2026-07-28' ? 'stateless' : (upstreamSessionId ?? 'stateless');
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
