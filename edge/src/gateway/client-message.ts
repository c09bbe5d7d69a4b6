import { parseJson } from '../../../src/engine/json/index.ts';
import { drainBody, readLimitedText } from '../http/read-limited-text.ts';
import { gatewayError } from '../rpc/gateway-error.ts';
import { isNotificationNamed, type JsonRpcResponse } from '../rpc/json-rpc.ts';
import { mediaType } from '../upstream/upstream-fetch.ts';

/** A client's POST body as one JSON-RPC message object, or the answer that refuses it (id null: it is unread). */
export type ClientMessage =
  | { readonly ok: true; readonly message: Record<string, unknown> }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly error: JsonRpcResponse };

const refuse = (status: 400 | 413 | 415, error: JsonRpcResponse): ClientMessage => ({ ok: false, status, error });

/**
 * Reads the client's message: `Content-Type: application/json` (415), at most `maxBytes` counted as the upload
 * streams (413, the rest drained within `refusedBodyDrain` and never kept), lossless JSON without duplicate keys (400), one JSON-RPC 2.0 object (no
 * batches), and no `tools/call` notification (nothing could check its answer).
 */
export async function readClientMessage(request: Request, maxBytes: number): Promise<ClientMessage> {
  if (mediaType(request.headers.get('content-type')) !== 'application/json') {
    // Drained, not cancelled (within bounds): a cancelled upload costs the next request its connection.
    await drainBody(request);
    return refuse(415, gatewayError(null, 'unsupported_media_type', 'an MCP message must be sent as Content-Type: application/json'));
  }
  const read = await readLimitedText(request, maxBytes);
  if (!read.ok) {
    return read.reason === 'too_large'
      ? refuse(413, gatewayError(null, 'message_too_large', `message over ${maxBytes} bytes`))
      : refuse(400, gatewayError(null, 'malformed_message', `cannot read the message: ${read.message}`));
  }
  const parsed = parseJson(read.text, { maxBytes, maxDepth: 1000 });
  if (!parsed.ok) {
    return parsed.code === 'too_large'
      ? refuse(413, gatewayError(null, 'message_too_large', `message over ${maxBytes} bytes`))
      : refuse(400, gatewayError(null, 'malformed_message', `cannot read the message: ${parsed.message}`));
  }
  const message = parsed.value;
  if (Array.isArray(message))
    return refuse(400, gatewayError(null, 'batch_not_supported', 'JSON-RPC batches are not supported by this gateway'));
  if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return refuse(400, gatewayError(null, 'malformed_message', 'the message is not a JSON-RPC 2.0 object'));
  }
  const { id } = message as { id?: unknown };
  if ('id' in message && typeof id !== 'string' && typeof id !== 'number') {
    return refuse(400, gatewayError(null, 'malformed_message', 'a JSON-RPC id must be a string or a number'));
  }
  // A notification has no answer to check against, so a call must be a request.
  if (isNotificationNamed(message, 'tools/call')) {
    return refuse(
      400,
      gatewayError(null, 'notification_not_allowed', 'tools/call must be a request with an id; the notification was not sent'),
    );
  }
  return { ok: true, message: message as Record<string, unknown> };
}
