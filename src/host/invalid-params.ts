import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Issue } from '../protocol/issue.ts';

/** A JSON-RPC -32602 (invalid params) error whose message names the tool and lists path-qualified reasons. */
export function invalidParams(
  message: string,
  data: { readonly tool?: string; readonly code?: string; readonly issues?: readonly Issue[] },
): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

/** `$.a: reason; $.b: reason`, capped so an error message stays readable. */
export function issueSummary(issues: readonly Issue[], max = 10): string {
  const lines = issues.slice(0, max).map((issue) => `${issue.path}: ${issue.message}`);
  if (issues.length > max) lines.push(`… ${issues.length - max} more`);
  return lines.join('; ');
}
