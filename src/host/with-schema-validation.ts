import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  CallToolResultSchema,
  type ListToolsRequest,
  type ListToolsResult,
  ListToolsResultSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { toolListRefusals, toolRefusal } from '../engine/compile-tool.ts';
import { toolFingerprint } from '../engine/fingerprint.ts';
import { formatIssues } from '../engine/format-issue.ts';
import { engineVersion } from '../engine/index.ts';
import { policyHash, resolvePolicy } from '../engine/policy.ts';
import type { Issue } from '../protocol/issue.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import type { Policy } from '../protocol/policy.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import type { ValidatorService } from '../protocol/validator-service.ts';
import { wrapElicitation } from './elicitation-guard.ts';
import { invalidParams } from './invalid-params.ts';
import { createMemoryVerdictCache, type VerdictCache } from './verdict-cache.ts';

/** Something the adapter let through but wants the host to know (a refused tool, a result that broke its schema). */
export interface SchemaValidationWarning {
  readonly tool: string;
  readonly code: string;
  readonly message: string;
  readonly issues?: readonly Issue[];
}

export interface SchemaValidationOptions {
  /** Check tool-call arguments against `inputSchema` before sending (default true). */
  readonly arguments?: boolean;
  /** `structuredContent` against `outputSchema`: `warn` (default) delivers it with a warning, `enforce` rejects. */
  readonly structuredContent?: 'warn' | 'enforce' | 'off';
  /** Check elicitation answers against `requestedSchema` before they go back (default true). */
  readonly elicitation?: boolean;
  /** Invalid arguments as a JSON-RPC -32602 error (`protocol`, default) or an `isError` result a model can read. */
  readonly argumentErrors?: 'protocol' | 'result';
  readonly validator: ValidatorService & { readonly policy?: Policy };
  /** Persistent tool verdicts (default: in memory; `createIdbVerdictCache()` in a browser). */
  readonly cache?: VerdictCache;
  readonly onWarning?: (warning: SchemaValidationWarning) => void;
  /** After each `tools/list` page: every verdict, and how many came from the cache versus a fresh compile. */
  readonly onVerdicts?: (summary: {
    readonly verdicts: readonly ToolVerdict[];
    readonly fromCache: number;
    readonly compiled: number;
  }) => void;
}

interface Entry {
  readonly tool: Tool;
  /** Replaced when the validator refuses the tool after it was listed (validations kept overrunning the budget). */
  verdict: ToolVerdict;
  /** Whether the validator holds this tool's compiled schemas (a verdict from the cache compiles lazily). */
  compiled: boolean;
}

/** A check's outcome, or the message of a check that overran its time budget. */
type Checked = ValidationOutcome | { readonly timedOut: string };

/** At most this many `tools/list` pages are read when a call names a tool the adapter has not seen. */
const maxPages = 100;

/**
 * Makes an MCP `Client` enforce every schema its servers hand it (docs/architecture.md#host-adapter): refused tools are left out of
 * `listTools`; `callTool` sends nothing for a refused tool or invalid arguments; results are checked against their
 * `outputSchema`; elicitation answers are checked against `requestedSchema` before they are relayed.
 * Returns the same client, its methods wrapped.
 */
export function withSchemaValidation<C extends Client>(client: C, options: SchemaValidationOptions): C {
  const validator = options.validator;
  const checkArguments = options.arguments ?? true;
  const output = options.structuredContent ?? 'warn';
  const argumentErrors = options.argumentErrors ?? 'protocol';
  const cache = options.cache ?? createMemoryVerdictCache();
  const warn = options.onWarning ?? (() => undefined);
  const policy = validator.policy ?? resolvePolicy();
  const keyPrefix = `${engineVersion}|cfworker-4.1.6|${policyHash(policy)}|`;
  const registry = new Map<string, Entry>();

  // The names on each page of the current listing (a call without a cursor starts one): pages make one list, so a
  // name repeated on a later page is a duplicate too. A page read again replaces itself.
  let pages = new Map<string, readonly string[]>();
  let counts = new Map<string, number>();

  const admit = async (tools: readonly Tool[]): Promise<Tool[]> => {
    // The list's own verdicts (a malformed or duplicated name) come first, decided over the whole list: a cached
    // verdict for one definition must not let a duplicate through, and such a verdict is never cached. The
    // registry keeps the last entry of a name, so a duplicate refuses the name's earlier definitions too.
    const forced = toolListRefusals(tools, counts);
    const judged = (i: number): boolean => forced[i] === undefined;
    const prints = await Promise.all(tools.map((tool, i) => (judged(i) ? toolFingerprint(tool).catch(() => '') : '')));
    const cached = await Promise.all(prints.map((print) => (print === '' ? undefined : cache.get(keyPrefix + print))));
    const fresh = tools.filter((_, i) => judged(i) && cached[i] === undefined);
    const compiled = fresh.length > 0 ? await validator.compileTools(fresh) : [];
    let next = 0;
    const accepted: Tool[] = [];
    const verdicts: ToolVerdict[] = [];
    for (const [i, tool] of tools.entries()) {
      const fromCache = cached[i];
      const verdict = forced[i] ?? fromCache ?? (compiled[next++] as ToolVerdict);
      verdicts.push(verdict);
      if (judged(i) && fromCache === undefined && prints[i] !== '') await cache.set(keyPrefix + prints[i], verdict);
      registry.set(tool.name, { tool, verdict, compiled: judged(i) && fromCache === undefined });
      for (const side of [verdict.input, verdict.output]) {
        if (side !== null && !side.ok) warn({ tool: tool.name, code: side.code, message: side.message });
      }
      for (const warning of verdict.warnings) warn({ tool: tool.name, code: warning.code, message: warning.message });
      if (verdict.verdict === 'accepted') accepted.push(tool);
    }
    options.onVerdicts?.({ verdicts, fromCache: cached.filter((verdict) => verdict !== undefined).length, compiled: fresh.length });
    return accepted;
  };

  const listTools = async (params?: ListToolsRequest['params'], requestOptions?: RequestOptions): Promise<ListToolsResult> => {
    // The SDK's own listTools would compile output schemas with its validator on this thread; we do it in ours.
    const result = await client.request({ method: 'tools/list', params }, ListToolsResultSchema, requestOptions);
    const page = params?.cursor ?? '';
    if (params?.cursor === undefined) [pages, counts] = [new Map(), new Map()];
    for (const name of pages.get(page) ?? []) counts.set(name, (counts.get(name) ?? 1) - 1);
    const tools = await admit(result.tools);
    pages.set(
      page,
      result.tools.map((tool) => tool.name),
    );
    for (const tool of result.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
    // Keep the SDK's task-support bookkeeping for accepted tools, without its output validators.
    (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata?.(
      tools.map((tool) => ({ ...tool, outputSchema: undefined })),
    );
    return { ...result, tools };
  };

  const listAll = async (requestOptions?: RequestOptions): Promise<void> => {
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = await listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
      cursor = result.nextCursor;
      if (cursor === undefined) return;
    }
  };

  const refuseCall = (tool: string, code: string, message: string, issues?: readonly Issue[]): CallToolResult => {
    if (argumentErrors === 'result') return { content: [{ type: 'text', text: message }], isError: true };
    throw invalidParams(message, { tool, code, ...(issues ? { issues } : {}) });
  };

  /**
   * A validation that overran its budget fails that check (`timeout`), never a reason to send unchecked; the tool
   * stays listed and callable (the instance may be what was slow). A schema the validator refuses from then on
   * (`too_slow`, it kept overrunning) is marked refused here too, so the next `listTools` leaves the tool out.
   */
  const checked = async (entry: Entry, side: 'input' | 'output', run: () => Promise<ValidationOutcome>): Promise<Checked> => {
    let outcome: ValidationOutcome;
    try {
      outcome = await run();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'TIMEOUT') throw error;
      return { timedOut: error instanceof Error ? error.message : 'validation ran past its time budget' };
    }
    if ('refused' in outcome && entry.verdict.verdict === 'accepted') {
      const verdict: ToolVerdict = { ...entry.verdict, verdict: 'refused', [side]: { ok: false, ...outcome.refused } };
      entry.verdict = verdict;
      if (verdict.fingerprint !== '') await cache.set(keyPrefix + verdict.fingerprint, verdict);
    }
    return outcome;
  };

  const callTool = async (
    params: CallToolRequest['params'],
    resultSchema: typeof CallToolResultSchema = CallToolResultSchema,
    requestOptions?: RequestOptions,
  ): Promise<CallToolResult> => {
    const name = params.name;
    let entry = registry.get(name);
    if (entry === undefined) {
      // Never a cold-cache bypass: a tool nobody listed yet is listed first.
      await listAll(requestOptions);
      entry = registry.get(name);
    }
    if (entry === undefined) {
      return refuseCall(name, 'unknown_tool', `Tool "${name}" is not in the server's tool list; the call was not sent`);
    }
    const { verdict } = entry;
    const refusal = toolRefusal(verdict);
    if (refusal !== undefined) {
      return refuseCall(
        name,
        refusal.code,
        `Tool "${name}" is refused by schema policy (${refusal.code}: ${refusal.message}); the call was not sent`,
      );
    }
    if (checkArguments) {
      if (!entry.compiled) {
        await validator.compileTools([entry.tool]);
        entry.compiled = true;
      }
      const outcome = await checked(entry, 'input', () => validator.validateArguments(verdict.fingerprint, params.arguments ?? {}));
      if ('timedOut' in outcome) {
        return refuseCall(
          name,
          'timeout',
          `Tool "${name}": arguments could not be checked in time (${outcome.timedOut}); the call was not sent`,
        );
      }
      if ('refused' in outcome) {
        return refuseCall(
          name,
          outcome.refused.code,
          `Tool "${name}": arguments cannot be checked (${outcome.refused.code}: ${outcome.refused.message}); the call was not sent`,
        );
      }
      if (!outcome.valid) {
        const lines = outcome.issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
        if (argumentErrors === 'result') return refuseCall(name, 'invalid_arguments', `Invalid arguments for tool "${name}":\n${lines}`);
        return refuseCall(
          name,
          'invalid_arguments',
          `Invalid arguments for tool "${name}": ${formatIssues(outcome.issues)}`,
          outcome.issues,
        );
      }
    }
    const result = (await client.request({ method: 'tools/call', params }, resultSchema, requestOptions)) as CallToolResult;
    if (output !== 'off' && !result.isError && entry.tool.outputSchema !== undefined) await checkOutput(entry, result);
    return result;
  };

  const checkOutput = async (entry: Entry, result: CallToolResult): Promise<void> => {
    const name = entry.tool.name;
    if (result.structuredContent === undefined) {
      const message = `Tool "${name}" declares an outputSchema but returned no structuredContent`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: 'structured_content_missing' });
      warn({ tool: name, code: 'structured_content_missing', message });
      return;
    }
    if (!entry.compiled) {
      await validator.compileTools([entry.tool]);
      entry.compiled = true;
    }
    const outcome = await checked(entry, 'output', () => validator.validateStructured(entry.verdict.fingerprint, result.structuredContent));
    if ('timedOut' in outcome) {
      const message = `Tool "${name}": structuredContent could not be checked in time (${outcome.timedOut})`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: 'timeout' });
      warn({ tool: name, code: 'timeout', message });
    } else if ('refused' in outcome) {
      const message = `Tool "${name}": structuredContent cannot be checked (${outcome.refused.code}: ${outcome.refused.message})`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: outcome.refused.code });
      warn({ tool: name, code: outcome.refused.code, message });
    } else if (!outcome.valid) {
      const message = `Tool "${name}" returned structuredContent that does not match its outputSchema: ${formatIssues(outcome.issues)}`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: 'structured_content_invalid', issues: outcome.issues });
      warn({ tool: name, code: 'structured_content_invalid', message, issues: outcome.issues });
    }
  };

  Object.assign(client, { listTools, callTool });
  if (options.elicitation ?? true) wrapElicitation(client, validator);
  return client;
}
