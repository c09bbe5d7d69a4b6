// The page's client for a server that speaks only MCP 2026-07-28: the v2 SDK client pinned to that revision (no
// initialize; elicitation arrives as MRTR rounds, answered through its `elicitation/create` handler), with the same
// schema policy as the v1 path: each listed tool compiled by the worker validator (refused ones left out), arguments
// checked before a call is sent, structuredContent checked against outputSchema (a warning, as on the v1 path).
import type { Client as ModernClient, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { CallToolResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type SchemaValidationOptions, toolRefusal, type Validator } from '../host/browser.ts';
import { refusedToolMessage, unknownToolMessage } from '../mcp/call-messages.ts';
import { judgeToolList } from '../mcp/index.ts';
import { resultAsSent } from '../mcp/list-as-sent.ts';
import { readToolListPage } from '../mcp/tool-list-result.ts';
import type { ToolVerdict } from '../protocol/tool.ts';

/** What the page needs of a connected client, whichever revision it speaks. */
export interface PageClient {
  /** The MCP revision this connection speaks. */
  readonly revision: '2025-11-25' | '2026-07-28';
  listTools(params?: { cursor?: string }): Promise<ListToolsResult>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export interface ModernValidationOptions {
  readonly validator: Validator;
  readonly onWarning: NonNullable<SchemaValidationOptions['onWarning']>;
  readonly onVerdicts: NonNullable<SchemaValidationOptions['onVerdicts']>;
}

type Issues = readonly { readonly path: string; readonly message: string }[];

/** An error shaped like the v1 adapter's refusals (`data.code`, `data.issues`), so the conversation shows it alike. */
const refused = (message: string, code: string, issues?: Issues): Error =>
  Object.assign(new Error(message), { data: { code, ...(issues ? { issues } : {}) } });

const listing = (issues: Issues): string => issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');

/** A result schema that gives back the result as sent (`listAsSent` on the transport, src/mcp), else the value. */
const asSent: StandardSchemaV1<unknown> = {
  '~standard': { version: 1, vendor: 'schemaval', validate: (value) => ({ value: resultAsSent(value) }) },
};

/** Wraps a connected v2 client (pinned to 2026-07-28) with the page's schema checks. */
export function withModernValidation(client: ModernClient, options: ModernValidationOptions): PageClient {
  const { validator, onWarning: warn } = options;
  const verdicts = new Map<string, ToolVerdict>();

  // The page reads tools/list as sent (`listAsSent` on the transport, in connect.ts): the SDK's own check of the list
  // would fail it whole for one malformed tool; here each tool gets the engine's verdict (`invalid_tool`).
  const listTools = async (params?: { cursor?: string }): Promise<ListToolsResult> => {
    const page = readToolListPage(await client.request({ method: 'tools/list', params }, asSent));
    if (!page.ok) throw new Error(`The server's tools/list answer cannot be read: ${page.message}`);
    const listed = page.tools;
    // The list's own verdicts under this connection's revision first (2026-07-28: any outputSchema root stands).
    const compiled = await judgeToolList(listed, '2026-07-28', (judged) => validator.compileTools(judged));
    const accepted: Tool[] = [];
    for (const [i, tool] of listed.entries()) {
      const verdict = compiled[i] as ToolVerdict;
      const name = verdict.name;
      verdicts.set(name, verdict);
      for (const side of [verdict.input, verdict.output]) {
        if (side !== null && side.status === 'refused') warn({ tool: name, code: side.refusal.code, message: side.refusal.message });
      }
      for (const warning of verdict.warnings) warn({ tool: name, code: warning.code, message: warning.message });
      if (verdict.status === 'accepted') accepted.push(tool as Tool);
    }
    options.onVerdicts({ verdicts: compiled, fromCache: 0, compiled: compiled.length });
    return {
      ...(page.rest as Partial<ListToolsResult>),
      tools: accepted,
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  };

  const callTool = async (params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> => {
    const { name } = params;
    const verdict = verdicts.get(name);
    if (verdict === undefined) throw refused(unknownToolMessage(name), 'unknown_tool');
    const refusal = toolRefusal(verdict);
    if (refusal !== undefined) throw refused(refusedToolMessage(name, refusal), refusal.code);
    const checked = await validator.validateArguments(verdict.fingerprint, params.arguments ?? {});
    if (checked.status === 'refused') {
      throw refused(`Tool "${name}": arguments cannot be checked (${checked.refusal.code}); the call was not sent`, checked.refusal.code);
    }
    if (checked.status === 'invalid') {
      throw refused(
        `Tool "${name}": invalid arguments, the call was not sent: ${listing(checked.issues)}`,
        'invalid_arguments',
        checked.issues,
      );
    }
    const result = (await client.callTool(params)) as unknown as CallToolResult;
    if (verdict.output?.status === 'accepted' && !result.isError) {
      if (result.structuredContent === undefined) {
        warn({
          tool: name,
          code: 'structured_content_missing',
          message: `Tool "${name}" declares an outputSchema but returned no structuredContent`,
        });
      } else {
        const outcome = await validator.validateStructured(verdict.fingerprint, result.structuredContent);
        if (outcome.status === 'invalid') {
          const message = `Tool "${name}" returned structuredContent that does not match its outputSchema: ${listing(outcome.issues)}`;
          warn({ tool: name, code: 'structured_content_invalid', message, issues: outcome.issues });
        }
      }
    }
    return result;
  };

  return { revision: '2026-07-28', listTools, callTool, close: () => client.close() };
}
