import { CliError, usageError } from './cli-io.ts';
import type { LintOptions } from './lint-command.ts';
import { type LintFormat, lintFormats } from './lint-formats.ts';
import { parseOptions } from './parse-options.ts';
import { policyOf, policyOptions } from './policy-flags.ts';
import { splitCommand } from './split-command.ts';

/** `--timeout` above this is surely a typo (ten minutes). */
const maxTimeoutMs = 600_000;

/**
 * `schemaval lint [--json] FILE|- | --url URL [--header "Name: value"]… | --stdio "CMD ARGS"` [--timeout MS]:
 * exactly one source of tools. A wrong combination is a usage error; a URL that is not http(s) is `invalid_url`.
 */
export function lintArgs(args: readonly string[]): LintOptions {
  const { values, positionals } = parse(args);
  const format = formatOf(values.format, values.json === true);
  const policy = policyOf(values, 'lint');
  const progress = values.progress === true;
  const given = [positionals.length > 0, values.url !== undefined, values.stdio !== undefined].filter(Boolean).length;
  if (given !== 1 || positionals.length > 1) {
    throw usageError('lint takes exactly one FILE (or - for standard input), --url URL or --stdio "CMD ARGS"', 'lint');
  }
  const headers = values.header ?? [];
  if (headers.length > 0 && values.url === undefined) throw usageError('--header goes with --url', 'lint');
  if (values.timeout !== undefined && positionals.length > 0) throw usageError('--timeout goes with --url or --stdio', 'lint');
  const requestTimeout = values['request-timeout'];
  if (requestTimeout !== undefined && positionals.length > 0) throw usageError('--request-timeout goes with --url or --stdio', 'lint');
  const timeoutMs = values.timeout === undefined ? undefined : timeout(values.timeout, '--timeout');
  const timing = {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(requestTimeout === undefined ? {} : { requestTimeoutMs: timeout(requestTimeout, '--request-timeout') }),
  };
  if (values.url !== undefined)
    return { source: { kind: 'url', url: httpUrl(values.url), headers: headerRecord(headers) }, format, ...timing, policy, progress };
  if (values.stdio !== undefined) {
    const words = splitCommand(values.stdio);
    if (words === undefined) throw usageError(`--stdio ${JSON.stringify(values.stdio)} has an unterminated quote or escape`, 'lint');
    const [command, ...rest] = words;
    if (command === undefined || command === '') throw usageError('--stdio needs a command', 'lint');
    return { source: { kind: 'stdio', line: values.stdio, command, args: rest }, format, ...timing, policy, progress };
  }
  return { source: { kind: 'file', file: positionals[0] as string }, format, policy, progress };
}

const parse = (args: readonly string[]) =>
  parseOptions('lint', args, {
    json: { type: 'boolean', default: false },
    format: { type: 'string' },
    url: { type: 'string' },
    stdio: { type: 'string' },
    header: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    'request-timeout': { type: 'string' },
    progress: { type: 'boolean', default: false },
    ...policyOptions,
  });

/** `--format F`, or `--json` (an alias of `--format json`); text by default. */
function formatOf(format: string | undefined, json: boolean): LintFormat {
  if (format === undefined) return json ? 'json' : 'text';
  if (!(lintFormats as readonly string[]).includes(format)) {
    throw usageError(`--format takes one of ${lintFormats.join(', ')}, got ${JSON.stringify(format)}`, 'lint');
  }
  if (json && format !== 'json') throw usageError(`--json is --format json; it does not go with --format ${format}`, 'lint');
  return format as LintFormat;
}

function timeout(text: string, flag: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(ms >= 1 && ms <= maxTimeoutMs))
    throw usageError(`${flag} takes milliseconds from 1 to ${maxTimeoutMs}, got ${JSON.stringify(text)}`, 'lint');
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
function headerRecord(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).trim();
    if (colon === -1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw usageError(`--header ${JSON.stringify(line)} is not "Name: value"`, 'lint');
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}
