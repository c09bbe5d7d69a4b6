import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Issue } from '../protocol/issue.ts';

/** A JSON-RPC -32602 (invalid params) error whose message names the tool and lists path-qualified reasons. */
export function invalidParams(
  message: string,
  data: { readonly tool?: string; readonly code?: string; readonly issues?: readonly Issue[] },
): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}
