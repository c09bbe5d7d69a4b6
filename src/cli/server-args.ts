import { positiveIntegerText } from '../engine/numbers/index.ts';
import { CliError, usageError } from './cli-io.ts';
import type { Command } from './command.ts';
import type { ToolSource } from './fetch-tools.ts';
import { splitCommand } from './split-command.ts';

/** `--timeout` above this is surely a typo (ten minutes). */
const maxTimeoutMs = 600_000;

/** The options that name a running MCP server and how long to wait for it, shared by `lint` and `validate`. */
export const serverOptions = {
  url: { type: 'string' },
  stdio: { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'request-timeout': { type: 'string' },
  progress: { type: 'boolean', default: false },
} as const;

/** What `serverOptions` parse into (`util.parseArgs` values). */
export interface ServerValues {
  readonly url?: string | undefined;
  readonly stdio?: string | undefined;
  readonly header?: readonly string[] | undefined;
  readonly timeout?: string | undefined;
  readonly 'request-timeout'?: string | undefined;
}

/** A server to ask, and the bounds on waiting for it. */
export interface ServerArgs {
  readonly source: ToolSource;
  /** `--timeout`: one deadline for connecting and every `tools/list` page. */
  readonly timeoutMs?: number;
  /** `--request-timeout`: each request at most this long. */
  readonly requestTimeoutMs?: number;
}

/**
 * The server `--url URL [--header "Name: value"]...` or `--stdio "CMD ARGS"` names, with `--timeout MS` and
 * `--request-timeout MS`; `undefined` when neither is given. The caller checks that at most one of them is (its
 * message names its other inputs). `--header` without `--url` and a timeout without a server are usage errors of
 * `command`; a URL that is not http(s) is `invalid_url`.
 */
export function serverArgs(values: ServerValues, command: Command): ServerArgs | undefined {
  const headers = values.header ?? [];
  if (headers.length > 0 && values.url === undefined) throw usageError('--header goes with --url', command);
  const server = values.url !== undefined || values.stdio !== undefined;
  if (values.timeout !== undefined && !server) throw usageError('--timeout goes with --url or --stdio', command);
  const requestTimeout = values['request-timeout'];
  if (requestTimeout !== undefined && !server) throw usageError('--request-timeout goes with --url or --stdio', command);
  const timeoutMs = values.timeout === undefined ? undefined : timeout(values.timeout, '--timeout', command);
  const timing = {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(requestTimeout === undefined ? {} : { requestTimeoutMs: timeout(requestTimeout, '--request-timeout', command) }),
  };
  if (values.url !== undefined)
    return { source: { kind: 'url', url: httpUrl(values.url), headers: headerRecord(headers, command) }, ...timing };
  if (values.stdio === undefined) return undefined;
  const words = splitCommand(values.stdio);
  if (words === undefined) throw usageError(`--stdio ${JSON.stringify(values.stdio)} has an unterminated quote or escape`, command);
  const [program, ...rest] = words;
  if (program === undefined || program === '') throw usageError('--stdio needs a command', command);
  return { source: { kind: 'stdio', line: values.stdio, command: program, args: rest }, ...timing };
}

function timeout(text: string, flag: string, command: Command): number {
  const ms = positiveIntegerText(text);
  if (ms === undefined || ms > maxTimeoutMs)
    throw usageError(`${flag} takes milliseconds from 1 to ${maxTimeoutMs}, got ${JSON.stringify(text)}`, command);
  return ms;
}

function httpUrl(text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError('invalid_url', `${JSON.stringify(text)} is not an http:// or https:// URL`);
  }
  return url;
}

/** `Name: value` lines into headers; a repeated name keeps the last value. */
function headerRecord(lines: readonly string[], command: Command): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).trim();
    if (colon === -1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw usageError(`--header ${JSON.stringify(line)} is not "Name: value"`, command);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}
