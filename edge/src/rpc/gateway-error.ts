import { errorResponse, type JsonRpcResponse } from './json-rpc.ts';

/**
 * Stable `data.code`s of the errors the gateway makes itself (docs/edge.md, "Threat model"). Never renamed once
 * shipped; a client branches on them.
 */
export type GatewayErrorCode =
  | 'malformed_message'
  | 'message_too_large'
  | 'unsupported_media_type'
  | 'batch_not_supported'
  | 'notification_not_allowed'
  | 'upstream_timeout'
  | 'upstream_unreachable'
  | 'upstream_error'
  | 'upstream_malformed'
  | 'upstream_content_type'
  | 'upstream_too_large'
  | 'upstream_truncated'
  | 'too_many_pages'
  | 'upstream_not_allowed'
  | 'upstream_not_configured'
  | 'protocol_version_mismatch'
  | 'state_too_large'
  | 'state_unavailable'
  | 'unknown_session';

/** A failure on the way to or from the upstream (or keeping what it sent): what the client is told instead of its bytes. */
export interface UpstreamFailure {
  readonly code:
    | Exclude<Extract<GatewayErrorCode, `upstream_${string}` | 'too_many_pages'>, 'upstream_not_allowed' | 'upstream_not_configured'>
    | GatewayStateError['code'];
  readonly message: string;
}

const rpcCodes: Record<GatewayErrorCode, number> = {
  malformed_message: -32700,
  message_too_large: -32600,
  unsupported_media_type: -32600,
  batch_not_supported: -32600,
  notification_not_allowed: -32600,
  upstream_timeout: -32603,
  upstream_unreachable: -32603,
  upstream_error: -32603,
  upstream_malformed: -32603,
  upstream_content_type: -32603,
  upstream_too_large: -32603,
  upstream_truncated: -32603,
  too_many_pages: -32603,
  upstream_not_allowed: -32600,
  upstream_not_configured: -32600,
  // The 2026-07-28 draft's HeaderMismatch, which its SDK server answers too.
  protocol_version_mismatch: -32020,
  state_too_large: -32603,
  state_unavailable: -32603,
  // What the MCP SDK servers answer (with HTTP 404) for a session they do not know: "Session not found".
  unknown_session: -32001,
};

/**
 * A session store that could not keep what a request needed: over its bound (`state_too_large`), or failed
 * (`state_unavailable`: a Durable Object error, workerd's RPC argument limit). Thrown by the store wrapper
 * (cached-session-store.ts) and answered as a JSON-RPC error under the request's id, never as an HTTP 500.
 */
export class GatewayStateError extends Error {
  override readonly name = 'GatewayStateError';
  constructor(
    readonly code: 'state_too_large' | 'state_unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** A JSON-RPC error made by the gateway: the JSON-RPC code that goes with `code`, and `code` under `data`. */
export function gatewayError(
  id: string | number | null,
  code: GatewayErrorCode,
  message: string,
  data: Record<string, unknown> = {},
): JsonRpcResponse {
  return errorResponse(id, rpcCodes[code], message, { ...data, code });
}
