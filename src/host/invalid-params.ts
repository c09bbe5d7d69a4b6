import type { Issue } from '../protocol/issue.ts';

/** JSON-RPC invalid params. */
const invalidParamsCode = -32602;

/** The error both SDK lines throw and relay for a JSON-RPC error: a `code`, a `data`, the v1 `McpError` wording. */
export interface JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
}

/**
 * A JSON-RPC -32602 (invalid params) error whose message names the tool and lists path-qualified reasons. A plain
 * `Error` with `code` and `data` (each SDK's handler relays those as the JSON-RPC error), worded as the v1
 * `McpError` is, so schemaval/host needs no SDK at run time. Check it by `code`, not `instanceof`.
 */
export function invalidParams(
  message: string,
  data: { readonly tool?: string; readonly code?: string; readonly issues?: readonly Issue[] },
): JsonRpcError {
  return Object.assign(new Error(`MCP error ${invalidParamsCode}: ${message}`), { name: 'McpError', code: invalidParamsCode, data });
}
