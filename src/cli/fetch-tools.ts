import type { ChildProcess } from 'node:child_process';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { maxToolListPages, maxToolsPerListing, readToolListPage } from '../mcp/index.ts';
import { listAsSent, resultAsSent } from '../mcp/list-as-sent.ts';
import { packageVersion } from './package-version.ts';
import { protocolError, type RemoteContext, remoteError, timeoutError } from './remote-error.ts';

/** Where `lint` gets its tools when not from a file: a Streamable HTTP endpoint or a command speaking stdio. */
export type ToolSource =
  | { readonly kind: 'url'; readonly url: URL; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: 'stdio'; readonly line: string; readonly command: string; readonly args: readonly string[] };

export interface FetchToolsOptions {
  /** One deadline for starting, `initialize` and every `tools/list` page. */
  readonly timeoutMs: number;
  /** Each request (`initialize`, each `tools/list` page) at most this long, within `timeoutMs`. */
  readonly requestTimeoutMs?: number;
  /** Called after each `tools/list` page with its number and the tools listed so far (progress). */
  readonly onPage?: (page: number, tools: number) => void;
  /** `tools/list` pages followed before giving up on a server that never stops paging. */
  readonly maxPages?: number;
}

/** The one listing bound of every surface (src/mcp/tool-list-limits.ts). */
export const defaultMaxPages = maxToolListPages;

/**
 * Connects to an MCP server as a client, follows `tools/list` cursors and returns every tool exactly as the server
 * sent it (no SDK parsing of the tools, so a malformed tool is linted, not rejected here). Every failure is a
 * `CliError` with one line in words; the connection is closed (the command stopped) before returning.
 *
 * It speaks MCP 2025-11-25 first (SDK v1 `Client`, `initialize`). When a URL answers that `initialize` with the
 * 2026-07-28 refusal (HTTP 400, JSON-RPC -32022 `UnsupportedProtocolVersion` listing 2026-07-28 as supported),
 * it asks again with the v2 client pinned to 2026-07-28 (stateless, loaded only then). Legacy first, because most
 * servers speak 2025-11-25 and a server of both revisions lists the same tools either way.
 */
export async function fetchTools(source: ToolSource, options: FetchToolsOptions): Promise<FetchedTools> {
  const deadline = Date.now() + options.timeoutMs;
  const maxPages = options.maxPages ?? defaultMaxPages;
  const onPage = options.onPage ?? (() => {});
  const link = openLink(source);
  const context: RemoteContext = {
    where: source.kind === 'url' ? source.url.href : `server command ${JSON.stringify(shorten(source.line))}`,
    kind: source.kind,
    timeoutMs: options.timeoutMs,
    phase: 'initialize',
    exit: link.exit,
    stderrTail: link.stderrTail,
  };
  // Each request gets what is left of the deadline, or the per-request bound when that is shorter; the message
  // of a timeout names the bound that was in force (the overall --timeout when nothing else applies).
  const remaining = (): number => {
    const left = deadline - Date.now();
    context.timeoutMs = options.timeoutMs;
    context.perRequest = false;
    if (left <= 0) throw timeoutError(context);
    const perRequest = options.requestTimeoutMs;
    if (perRequest !== undefined && perRequest < left) {
      context.timeoutMs = perRequest;
      context.perRequest = true;
      return perRequest;
    }
    return left;
  };
  let supported: readonly string[] | undefined;
  const client = createClient();
  try {
    await client.connect(link.transport, { timeout: remaining() });
    context.phase = 'tools/list';
    const tools = await followPages(
      async (params, timeout) => await client.request({ method: 'tools/list', params }, ResultSchema, { timeout }),
      context,
      remaining,
      maxPages,
      onPage,
    );
    return { tools, revision: legacyRevision };
  } catch (error) {
    supported = source.kind === 'url' && context.phase === 'initialize' ? modernRefusal(error) : undefined;
    if (supported === undefined) throw remoteError(error, context);
  } finally {
    await close(client, link.transport);
    link.stop();
  }
  if (source.kind !== 'url' || !supported.includes(modernRevision)) {
    throw protocolError(
      context,
      `it speaks MCP ${supported.join(', ') || 'no revision it names'}; schemaval lint speaks 2025-11-25 and ${modernRevision}`,
    );
  }
  return { tools: await fetchToolsModern(source, context, remaining, maxPages, onPage), revision: modernRevision };
}

/** A server's tools as sent, and the MCP revision they were listed in (it decides the `outputSchema` root rule). */
export interface FetchedTools {
  readonly tools: unknown[];
  readonly revision: string;
}

/**
 * The revision the v1 client speaks at most (its LATEST_PROTOCOL_VERSION). Whatever older one it negotiates, the
 * `outputSchema` root rule is the same: every revision before 2026-07-28 requires `"type": "object"`.
 */
const legacyRevision = '2025-11-25';

/** The MCP revision the v2 client is pinned to when a server refuses 2025-11-25. */
const modernRevision = '2026-07-28';

/** JSON-RPC `UnsupportedProtocolVersion` (MCP 2026-07-28). */
const unsupportedProtocolVersion = -32022;

/**
 * The revisions a server lists when it refuses `initialize` as a 2026-07-28-era server does (HTTP 400 with a
 * JSON-RPC -32022 error body, or that error in a 200 answer), or `undefined` for any other failure.
 */
function modernRefusal(error: unknown): readonly string[] | undefined {
  if (error instanceof StreamableHTTPError) {
    if (error.code !== 400) return undefined;
    const body = error.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
    return supportedIn((parsed as { error?: unknown } | null)?.error);
  }
  return error instanceof McpError ? supportedIn(error) : undefined;
}

function supportedIn(error: unknown): readonly string[] | undefined {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: unknown };
  if (code !== unsupportedProtocolVersion) return undefined;
  const list = (data as { supported?: unknown } | null | undefined)?.supported;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

type ListPage = (params: { cursor?: string }, timeout: number) => Promise<unknown>;

/** Asks for `tools/list` pages until one has no `nextCursor`, with the same checks for either revision. */
async function followPages(
  list: ListPage,
  context: RemoteContext,
  remaining: () => number,
  maxPages: number,
  onPage: (page: number, tools: number) => void,
): Promise<unknown[]> {
  const tools: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    // Only the envelope is checked; each tool is judged by the engine, a malformed one refused invalid_tool.
    const result = readToolListPage(await list(cursor === undefined ? {} : { cursor }, remaining()));
    if (!result.ok) throw protocolError(context, result.message);
    tools.push(...result.tools);
    onPage(page, tools.length);
    if (tools.length > maxToolsPerListing) throw protocolError(context, `its tools/list lists more than ${maxToolsPerListing} tools`);
    if (result.nextCursor === undefined) return tools;
    if (cursors.has(result.nextCursor)) throw protocolError(context, `its tools/list repeats the cursor of page ${page}`);
    if (page === maxPages) throw protocolError(context, `its tools/list still has more after ${maxPages} pages`);
    cursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}

/**
 * The same listing with the v2 SDK client pinned to 2026-07-28: `server/discover` on connect, then `tools/list` with
 * the revision, client info and capabilities in each request's `_meta`. The answer is kept as sent (`listAsSent`:
 * the client's own wire check of `tools/list` never sees the tools), so a malformed tool gets a verdict. Same capabilities and handlers as the v1 client.
 */
async function fetchToolsModern(
  source: Extract<ToolSource, { kind: 'url' }>,
  context: RemoteContext,
  remaining: () => number,
  maxPages: number,
  onPage: (page: number, tools: number) => void,
): Promise<unknown[]> {
  const sdk = await import('@modelcontextprotocol/client');
  const client = new sdk.Client(
    { name: 'schemaval-lint', version: packageVersion() },
    {
      capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
      versionNegotiation: { mode: { pin: modernRevision } },
    },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'decline' as const }));
  client.setRequestHandler('sampling/createMessage', () => {
    throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidRequest, 'schemaval lint does not sample');
  });
  const transport = new sdk.StreamableHTTPClientTransport(source.url, { requestInit: { headers: { ...source.headers } } });
  const asSent: StandardSchemaV1<unknown> = {
    '~standard': { version: 1, vendor: 'schemaval', validate: (value) => ({ value: resultAsSent(value) }) },
  };
  context.phase = 'initialize';
  try {
    await client.connect(transport, { timeout: remaining() });
    listAsSent(transport);
    context.phase = 'tools/list';
    return await followPages(
      async (params, timeout) => await client.request({ method: 'tools/list', params }, asSent, { timeout }),
      context,
      remaining,
      maxPages,
      onPage,
    );
  } catch (error) {
    if (error instanceof sdk.SdkError && error.code === sdk.SdkErrorCode.RequestTimeout) throw timeoutError(context);
    throw remoteError(error, context);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Some servers list a tool only to a client that can serve it (server-everything's elicitation and sampling tools),
 * so the client declares both, to see what a capable host sees. It never calls a tool, so neither is expected to be
 * used: an elicitation is declined and a sampling request refused. Roots are not declared, since a server would
 * replace its own allowed directories with the answer.
 */
function createClient(): Client {
  const client = new Client(
    { name: 'schemaval-lint', version: packageVersion() },
    { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    throw new McpError(ErrorCode.InvalidRequest, 'schemaval lint does not sample');
  });
  return client;
}

interface Link {
  readonly transport: Transport;
  /** How the command ended, once it has (stdio only). */
  readonly exit: () => { code: number | null; signal: string | null } | undefined;
  /** The last of what the command wrote on standard error (stdio only). */
  readonly stderrTail: () => string;
  /**
   * Ends the command if it still runs. The SDK's close gives it stdin's end, then SIGTERM after 2 s, but when
   * `initialize` fails the SDK starts that close without waiting for it, and this process might exit first.
   */
  readonly stop: () => void;
}

function openLink(source: ToolSource): Link {
  if (source.kind === 'url') {
    const transport = new StreamableHTTPClientTransport(source.url, { requestInit: { headers: { ...source.headers } } });
    return { transport, exit: () => undefined, stderrTail: () => '', stop: () => undefined };
  }
  // The command gets this process's environment (as from a shell), not the SDK's short default list.
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const transport = new StdioClientTransport({ command: source.command, args: [...source.args], env, stderr: 'pipe' });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  let exit: { code: number | null; signal: string | null } | undefined;
  let child: ChildProcess | undefined;
  // The transport keeps its child process private and drops it before `onclose`; its exit code is read here,
  // from the `exit` event, which Node emits before `close`.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    child = (transport as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', (code, signal) => {
      exit = { code, signal };
    });
  };
  const stop = () => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  return { transport, exit: () => exit, stderrTail: () => tail, stop };
}

/** Closes the client; an HTTP session is ended with DELETE first, but never waited on for more than a second. */
async function close(client: Client, transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    const pause = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), pause]);
    clearTimeout(timer);
  }
  await client.close().catch(() => undefined);
}

const shorten = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);
