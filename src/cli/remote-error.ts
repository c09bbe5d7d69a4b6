import { STATUS_CODES } from 'node:http';
import { CliError } from './cli-io.ts';

/** What `fetchTools` was doing, for a message that says where and when it failed. */
export interface RemoteContext {
  /** The URL, or `server command "CMD ARGS"`. */
  readonly where: string;
  readonly kind: 'url' | 'stdio';
  /** The bound the request in flight is held to: what is left of `--timeout`, or `--request-timeout`. */
  timeoutMs: number;
  /** Whether that bound is `--request-timeout` (one request) rather than the overall deadline. */
  perRequest?: boolean;
  phase: 'initialize' | 'tools/list';
  readonly exit: () => { code: number | null; signal: string | null } | undefined;
  readonly stderrTail: () => string;
}

/** JSON-RPC codes the SDK uses for its own failures (`ErrorCode` in @modelcontextprotocol/sdk/types.js). */
const connectionClosed = -32000;
const requestTimeout = -32001;

/** The deadline passed with nothing answered. */
export const timeoutError = (context: RemoteContext): CliError =>
  new CliError(
    'server_timeout',
    `no answer from ${context.where} within ${context.timeoutMs} ms (${context.phase}${context.perRequest ? ', --request-timeout' : ''})`,
  );

/**
 * One line in words for anything that went wrong while talking to a server: `connect_failed` (no connection, an
 * HTTP error status, a command that cannot start), `server_exited`, `server_timeout`, or `protocol_error` (it
 * answered, but not as an MCP server would).
 */
export function remoteError(error: unknown, context: RemoteContext): CliError {
  if (error instanceof CliError) return error;
  const exit = context.exit();
  if (exit !== undefined) {
    const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
    const before = context.phase === 'initialize' ? 'before answering' : 'before answering tools/list';
    const said = lastWords(context.stderrTail());
    return new CliError('server_exited', `${context.where} exited (${how}) ${before}${said ? `; its stderr: ${said}` : ''}`);
  }
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (context.kind === 'stdio' && typeof code === 'string' && /^spawn\b/.test(String((error as { syscall?: unknown }).syscall))) {
    return new CliError(
      'connect_failed',
      `cannot start ${context.where}: ${code === 'ENOENT' ? 'no such command' : (networkWords[code] ?? code)}`,
    );
  }
  if (error instanceof Error && error.message.startsWith('Streamable HTTP error: ') && typeof code === 'number') {
    if (code > 0)
      return new CliError('connect_failed', `cannot connect to ${context.where}: HTTP ${code} ${STATUS_CODES[code] ?? ''}`.trimEnd());
    return protocolError(context, message.slice('Streamable HTTP error: '.length));
  }
  if (code === requestTimeout) return timeoutError(context);
  const cause = networkCause(error) ?? (message === 'fetch failed' ? causeMessage(error) : undefined);
  if (cause !== undefined) return new CliError('connect_failed', `cannot connect to ${context.where}: ${cause}`);
  if (code === connectionClosed) return new CliError('connect_failed', `${context.where} closed the connection during ${context.phase}`);
  if (typeof code === 'number')
    return protocolError(context, `${context.phase} answered with error ${code}: ${message.replace(/^MCP error -?\d+: /, '')}`);
  return protocolError(context, `${context.phase} failed: ${message}`);
}

/** The server answered, but not as an MCP server would. */
export const protocolError = (context: RemoteContext, what: string): CliError =>
  new CliError('protocol_error', `${context.where}: ${oneLine(what)}`);

/** The socket-level reason under a failed `fetch` (`TypeError: fetch failed` with a `cause`, maybe an AggregateError). */
function networkCause(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const { code, cause, errors, message } = next as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (code in networkWords) return networkWords[code];
      if (/CERT|SSL|TLS/.test(code)) return `TLS: ${typeof message === 'string' ? message : code}`;
    }
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}

/** What undici says under `fetch failed` when it gives no code (`bad port`, `invalid method`, …). */
function causeMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message !== '' ? oneLine(cause.message) : 'fetch failed';
}

const networkWords: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'the server closed the connection',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The line of a crashed command's stderr most likely to say why: the last one naming an error, else the last. */
function lastWords(tail: string): string {
  const lines = tail
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const line = lines.findLast((l) => /error/i.test(l)) ?? lines.at(-1) ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
