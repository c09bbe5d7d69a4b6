import { stringify } from 'lossless-json';
import { gatewayError } from '../rpc/gateway-error.ts';
import { createSessionSealer } from '../state/sealed-session.ts';
import type { ProtocolRevision } from './protocol-revision.ts';

/** A request's `Mcp-Session-Id` once checked: the upstream's own id (null: none), or refused. */
export type SessionCheck = { readonly ok: true; readonly upstreamId: string | null } | { readonly ok: false };

/** The gateway's two session-id hooks: on every client request, and on every upstream response's headers. */
export interface SessionGate {
  /**
   * Checks a request's `Mcp-Session-Id` against its credential scope, before anything names a state key. In the
   * session era an id that does not verify is refused; 2026-07-28 has no sessions, so there it names nothing and
   * is dropped rather than refused (and never forwarded: the upstream only ever sees ids it issued).
   */
  open(headers: Headers, scope: string, revision: ProtocolRevision): Promise<SessionCheck>;
  /** Seals the upstream's `Mcp-Session-Id` in `headers` for `scope`; false when it cannot be (not visible ASCII, too long). */
  seal(headers: Headers, scope: string): Promise<boolean>;
}

/** One sealer per gateway; index.ts hands every upstream's gateway the isolate's one `SESSION_SECRET` (or random key). */
export function createSessionGate(secret?: string): SessionGate {
  const sealer = createSessionSealer(secret);
  return {
    async open(headers, scope, revision) {
      const sent = headers.get('mcp-session-id');
      if (sent === null) return { ok: true, upstreamId: null };
      const upstreamId = await sealer.unseal(sent, scope);
      if (upstreamId !== undefined) return { ok: true, upstreamId };
      return revision === '2026-07-28' ? { ok: true, upstreamId: null } : { ok: false };
    },
    async seal(headers, scope) {
      const issued = headers.get('mcp-session-id');
      if (issued === null) return true;
      const sealed = await sealer.seal(issued, scope);
      if (sealed === undefined) return false;
      headers.set('mcp-session-id', sealed);
      return true;
    },
  };
}

/**
 * The answer to a session id the gateway did not issue for this credential (forged, tampered, another credential's,
 * or sealed by a key this isolate no longer has): HTTP 404, which the MCP transport defines as the signal to start
 * over — "When a client receives HTTP 404 in response to a request containing an `Mcp-Session-Id`, it MUST start a
 * new session by sending a new `InitializeRequest` without a session ID attached" (2025-11-25, basic/transports,
 * "Session Management"; the vendored fixtures in test/fixtures/mcp-spec hold the schemas only, not this text).
 */
export function unknownSessionResponse(id: string | number | null): Response {
  const message = 'the Mcp-Session-Id is not one this gateway issued to this credential; start a new session (initialize)';
  return new Response(stringify(gatewayError(id, 'unknown_session', message)) ?? '', {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });
}
