import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolRequest, CallToolResult, ListToolsRequest, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { cfworkerAdapterId, engineVersion } from '../engine/index.ts';
import { formatIssues } from '../engine/issues/index.ts';
import { toolFingerprintIfAny } from '../engine/json/index.ts';
import { policyHash, resolvePolicy } from '../engine/policy/index.ts';
import { toolListRefusals, toolRefusal } from '../engine/tools/index.ts';
import { refusedToolMessage, unknownToolMessage } from '../mcp/call-messages.ts';
import { maxToolListPages, maxToolsPerListing } from '../mcp/tool-list-limits.ts';
import { readToolListPage } from '../mcp/tool-list-result.ts';
import type { Issue } from '../protocol/issue.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import type { Policy } from '../protocol/policy.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import type { ValidatorService } from '../protocol/validator-service.ts';
import { wrapElicitation } from './elicitation-guard.ts';
import { invalidParams } from './invalid-params.ts';
import { anyResult, callToolResult } from './plain-result-schemas.ts';
import { createMemoryVerdictCache, isToolVerdict, type VerdictCache } from './verdict-cache.ts';

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

/**
 * What the adapter needs of an MCP client: the `@modelcontextprotocol/sdk` v1 `Client` and the
 * `@modelcontextprotocol/client` 2.x `Client` both have it, each with its own signatures.
 */
export interface McpClientLike {
  request(...args: never[]): Promise<unknown>;
  listTools(...args: never[]): Promise<unknown>;
  callTool(...args: never[]): Promise<unknown>;
  setRequestHandler(...args: never[]): unknown;
}

/** The v2 client's own surface the adapter uses (the v1 client has no `getNegotiatedProtocolVersion`). */
interface ModernClient {
  getNegotiatedProtocolVersion(): string | undefined;
  callTool(params: CallToolRequest['params'], options?: RequestOptions): Promise<CallToolResult>;
}

/**
 * The v2 client checks a `tools/list` result against its own strict schema in its codec, before any result schema a
 * caller passes, so one malformed tool fails the listing there. Its transport is therefore watched: the `tools`
 * of each `tools/list` response are moved under this key and an empty list is left in their place, which its
 * schema passes; `listTools` reads them back and judges them one by one.
 */
const heldTools = Symbol('schemaval.heldTools');

/** The minimal Transport surface (the MCP SDK's public interface). */
interface WatchedTransport {
  send(message: unknown, ...rest: unknown[]): Promise<void>;
  onmessage?: ((message: unknown, ...rest: unknown[]) => void) | undefined;
}

const watched = new WeakSet<object>();

function holdToolLists(transport: WatchedTransport): void {
  if (watched.has(transport)) return;
  watched.add(transport);
  const pending = new Set<unknown>();
  const send = transport.send.bind(transport);
  transport.send = (message, ...rest) => {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    if (method === 'tools/list' && id !== undefined) pending.add(id);
    return send(message, ...rest);
  };
  let inner = transport.onmessage;
  const outer = (message: unknown, ...rest: unknown[]): void => {
    const { id, result } = (message ?? {}) as { id?: unknown; result?: unknown };
    const held =
      id !== undefined &&
      pending.delete(id) &&
      typeof result === 'object' &&
      result !== null &&
      Array.isArray((result as { tools?: unknown }).tools);
    inner?.(
      held
        ? { ...(message as object), result: { ...(result as object), tools: [], [heldTools]: (result as { tools: unknown[] }).tools } }
        : message,
      ...rest,
    );
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (inner === undefined ? undefined : outer),
    set: (handler: WatchedTransport['onmessage']) => {
      inner = handler;
    },
  });
}

/**
 * The shape of persisted tool verdicts, first in every cache key: raised whenever `ToolVerdict` changes shape, so a
 * browser's IndexedDB never answers with a verdict written in an older one (v2: `status` and `SchemaVerdict`s).
 */
const verdictFormat = 'v2';

/** A result schema (Standard Schema) that takes the value as it is: the envelope is read by `readToolListPage`. */
const asSent = { '~standard': { version: 1, vendor: 'schemaval', validate: (value: unknown) => ({ value }) } } as const;

/** The request surface both clients share: a method, its params, a result schema the client validates with. */
type RequestWithSchema = (
  request: { method: string; params?: unknown },
  resultSchema: unknown,
  options?: RequestOptions,
) => Promise<unknown>;

/**
 * Makes an MCP `Client` enforce every schema its servers hand it (docs/architecture.md#host-adapter): refused tools are left out of
 * `listTools`; `callTool` sends nothing for a refused tool or invalid arguments; results are checked against their
 * `outputSchema`; elicitation answers are checked against `requestedSchema` before they are relayed.
 * Returns the same client, its methods wrapped.
 */
export function withSchemaValidation<C extends McpClientLike>(client: C, options: SchemaValidationOptions): C {
  const validator = options.validator;
  const checkArguments = options.arguments ?? true;
  const output = options.structuredContent ?? 'warn';
  const argumentErrors = options.argumentErrors ?? 'protocol';
  const cache = options.cache ?? createMemoryVerdictCache();
  const warn = options.onWarning ?? (() => undefined);
  const policy = validator.policy ?? resolvePolicy();
  // The verdict format comes first: a verdict stored in an older shape is never looked up (`isToolVerdict` is the
  // second guard, for whatever a cache hands back).
  const keyPrefix = `${verdictFormat}|${engineVersion}|${cfworkerAdapterId}|${policyHash(policy)}|`;
  const registry = new Map<string, Entry>();
  const request = (client.request as unknown as RequestWithSchema).bind(client);
  const modern =
    typeof (client as unknown as Partial<ModernClient>).getNegotiatedProtocolVersion === 'function'
      ? (client as unknown as ModernClient)
      : undefined;
  const sendModernCall = modern?.callTool.bind(client);
  // The v2 client's transport, now or once connected, hands tools/list results over held (see heldTools).
  if (modern !== undefined) {
    const current = (client as unknown as { transport?: WatchedTransport }).transport;
    if (current !== undefined) holdToolLists(current);
    const connect = (client as unknown as { connect: (transport: WatchedTransport, ...rest: unknown[]) => Promise<void> }).connect.bind(
      client,
    );
    Object.assign(client, {
      connect: (transport: WatchedTransport, ...rest: unknown[]) => {
        holdToolLists(transport);
        return connect(transport, ...rest);
      },
    });
  }
  // The revision decides one rule (an outputSchema root other than "type": "object" is malformed before 2026-07-28);
  // the v1 client speaks at most 2025-11-25 (its LATEST_PROTOCOL_VERSION), and every earlier revision has that rule.
  const revision = (): string | undefined => (modern === undefined ? '2025-11-25' : modern.getNegotiatedProtocolVersion());

  // The names on each page of the current listing (a call without a cursor starts one): pages make one list, so a
  // name repeated on a later page is a duplicate too. A page read again replaces itself.
  let pages = new Map<string, readonly string[]>();
  let counts = new Map<string, number>();

  /** A cached verdict for this tool, or undefined: a value that is not a well-formed verdict on it is a miss. */
  const cachedVerdict = async (print: string, tool: Tool): Promise<ToolVerdict | undefined> => {
    const stored: unknown = await cache.get(keyPrefix + print);
    return isToolVerdict(stored) && stored.fingerprint === print && stored.name === tool.name ? stored : undefined;
  };

  const admit = async (tools: readonly unknown[]): Promise<Tool[]> => {
    // The list's own verdicts (a malformed or duplicated name, a definition MCP calls malformed) come first, decided
    // over the whole list: a cached verdict for one definition must not let a duplicate through, and such a verdict
    // is never cached. The registry keeps the last entry of a name, so a duplicate refuses the name's earlier
    // definitions too. Whatever is not refused here is an object with a string name and an object inputSchema.
    const forced = toolListRefusals(tools, counts, revision());
    const judged = (i: number): boolean => forced[i] === undefined;
    const prints = tools.map((tool, i) => (judged(i) ? (toolFingerprintIfAny(tool as Tool) ?? '') : ''));
    const cached = await Promise.all(prints.map((print, i) => (print === '' ? undefined : cachedVerdict(print, tools[i] as Tool))));
    const fresh = tools.filter((_, i) => judged(i) && cached[i] === undefined) as Tool[];
    const compiled = fresh.length > 0 ? await validator.compileTools(fresh) : [];
    let next = 0;
    const accepted: Tool[] = [];
    const verdicts: ToolVerdict[] = [];
    for (const [i, entry] of tools.entries()) {
      const fromCache = cached[i];
      const verdict = forced[i] ?? fromCache ?? (compiled[next++] as ToolVerdict);
      verdicts.push(verdict);
      if (judged(i) && fromCache === undefined && prints[i] !== '') await cache.set(keyPrefix + prints[i], verdict);
      // An entry with a string name is registered even when refused, so a call to it says why (`tools[3]` is no name).
      const tool = entry as Tool;
      const named = typeof (entry as { name?: unknown } | null)?.name === 'string';
      if (named) registry.set(tool.name, { tool, verdict, compiled: judged(i) && fromCache === undefined });
      for (const side of [verdict.input, verdict.output]) {
        if (side?.status === 'refused') warn({ tool: verdict.name, code: side.refusal.code, message: side.refusal.message });
      }
      for (const warning of verdict.warnings) warn({ tool: verdict.name, code: warning.code, message: warning.message });
      if (verdict.status === 'accepted') accepted.push(tool);
    }
    options.onVerdicts?.({ verdicts, fromCache: cached.filter((verdict) => verdict !== undefined).length, compiled: fresh.length });
    return accepted;
  };

  const listTools = async (params?: ListToolsRequest['params'], requestOptions?: RequestOptions): Promise<ListToolsResult> => {
    // The SDK's own listTools would compile output schemas with its validator on this thread, and its strict result
    // schema fails the whole list for one malformed tool: the result is read leniently (only its envelope) and
    // each entry judged here (docs/decisions/015-malformed-tools-excluded.md).
    const raw = await request(
      { method: 'tools/list', ...(params === undefined ? {} : { params }) },
      modern === undefined ? anyResult : asSent,
      requestOptions,
    );
    const { [heldTools]: held, ...sent } = (raw ?? {}) as { [heldTools]?: unknown };
    const result = readToolListPage(held === undefined ? raw : { ...sent, tools: held });
    if (!result.ok) throw new Error(`schemaval: ${result.message}`);
    const page = params?.cursor ?? '';
    if (params?.cursor === undefined) [pages, counts] = [new Map(), new Map()];
    for (const name of pages.get(page) ?? []) counts.set(name, (counts.get(name) ?? 1) - 1);
    pages.delete(page);
    // One listing holds at most maxToolsPerListing tools over all its pages; what lies past it is not listed.
    const before = [...pages.values()].reduce((sum, names) => sum + names.length, 0);
    const room = Math.max(0, maxToolsPerListing - before);
    const entries = result.tools.slice(0, room);
    if (entries.length < result.tools.length) {
      warn({
        tool: '',
        code: 'too_many_tools',
        message: `tools/list holds more than ${maxToolsPerListing} tools; ${result.tools.length - entries.length} were left out`,
      });
    }
    const tools = await admit(entries);
    const names = entries.flatMap((entry) => {
      const name = (entry as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? [name] : [];
    });
    pages.set(page, names);
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    // Keep the SDK's task-support bookkeeping for accepted tools, without its output validators.
    (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata?.(
      tools.map((tool) => ({ ...tool, outputSchema: undefined })),
    );
    return { ...result.rest, tools, ...(result.nextCursor === undefined ? {} : { nextCursor: result.nextCursor }) } as ListToolsResult;
  };

  const listAll = async (requestOptions?: RequestOptions): Promise<void> => {
    let cursor: string | undefined;
    for (let page = 0; page < maxToolListPages; page++) {
      const result = await listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
      cursor = result.nextCursor;
      const listed = [...pages.values()].reduce((sum, names) => sum + names.length, 0);
      if (cursor === undefined || listed >= maxToolsPerListing) return;
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
    if (outcome.status === 'refused' && entry.verdict.status === 'accepted') {
      const verdict: ToolVerdict = { ...entry.verdict, status: 'refused', [side]: { status: 'refused', refusal: outcome.refusal } };
      entry.verdict = verdict;
      if (verdict.fingerprint !== '') await cache.set(keyPrefix + verdict.fingerprint, verdict);
    }
    return outcome;
  };

  /** v1: `(params, resultSchema?, options?)`; v2: `(params, options?)`. */
  const callTool = async (params: CallToolRequest['params'], second?: unknown, third?: RequestOptions): Promise<CallToolResult> => {
    const resultSchema = modern === undefined ? (second ?? callToolResult) : undefined;
    const requestOptions = modern === undefined ? third : (second as RequestOptions | undefined);
    const name = params.name;
    let entry = registry.get(name);
    if (entry === undefined) {
      // Never a cold-cache bypass: a tool nobody listed yet is listed first.
      await listAll(requestOptions);
      entry = registry.get(name);
    }
    if (entry === undefined) {
      return refuseCall(name, 'unknown_tool', unknownToolMessage(name));
    }
    const { verdict } = entry;
    const refusal = toolRefusal(verdict);
    if (refusal !== undefined) {
      return refuseCall(name, refusal.code, refusedToolMessage(name, refusal));
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
      if (outcome.status === 'refused') {
        return refuseCall(
          name,
          outcome.refusal.code,
          `Tool "${name}": arguments cannot be checked (${outcome.refusal.code}: ${outcome.refusal.message}); the call was not sent`,
        );
      }
      if (outcome.status === 'invalid') {
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
    // v1: the SDK's own callTool would check structuredContent with its validator, so the request goes out directly;
    // the v2 client drives MRTR rounds in its callTool (and knows no output schema: it listed nothing itself).
    const result =
      sendModernCall === undefined
        ? ((await request({ method: 'tools/call', params }, resultSchema, requestOptions)) as CallToolResult)
        : await sendModernCall(params, requestOptions);
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
    } else if (outcome.status === 'refused') {
      const message = `Tool "${name}": structuredContent cannot be checked (${outcome.refusal.code}: ${outcome.refusal.message})`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: outcome.refusal.code });
      warn({ tool: name, code: outcome.refusal.code, message });
    } else if (outcome.status === 'invalid') {
      const message = `Tool "${name}" returned structuredContent that does not match its outputSchema: ${formatIssues(outcome.issues)}`;
      if (output === 'enforce') throw invalidParams(message, { tool: name, code: 'structured_content_invalid', issues: outcome.issues });
      warn({ tool: name, code: 'structured_content_invalid', message, issues: outcome.issues });
    }
  };

  Object.assign(client, { listTools, callTool });
  if (options.elicitation ?? true) wrapElicitation(client, validator);
  return client;
}
