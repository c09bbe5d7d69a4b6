import { isJsonObject } from '../../../src/engine/json/index.ts';

/** The JSON-RPC 2.0 message shapes the gateway reads (ids are strings or numbers, compared by their JSON text). */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export type JsonRpcMessage =
  | JsonRpcRequest
  | JsonRpcResponse
  | { readonly jsonrpc: '2.0'; readonly method: string; readonly params?: unknown };

export const isRequest = (m: unknown): m is JsonRpcRequest => isJsonObject(m) && typeof m.method === 'string' && 'id' in m;
/** A message with this method and no `id`: a notification. */
export const isNotificationNamed = (m: unknown, method: string): boolean => isJsonObject(m) && m.method === method && !('id' in m);
export const isResponse = (m: unknown): m is JsonRpcResponse =>
  isJsonObject(m) && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);

/**
 * A key for a request id, matching ids the way the MCP SDK does (it looks responses up by `Number(id)`), so a
 * response whose id is the string "7" for request 7 is checked as the answer to 7, as a client will take it.
 * Ids that are not numbers to the SDK keep their exact JSON text.
 */
export const idKey = (id: unknown): string => {
  const numeric = typeof id === 'number' || typeof id === 'string' ? Number(id) : Number.NaN;
  return Number.isFinite(numeric) ? `#${numeric}` : JSON.stringify(id);
};

/** A JSON-RPC error response. */
export function errorResponse(id: string | number | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}
