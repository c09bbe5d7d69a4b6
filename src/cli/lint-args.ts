import { usageError } from './cli-io.ts';
import type { LintOptions } from './lint-command.ts';
import { type LintFormat, lintFormats } from './lint-formats.ts';
import { parseOptions } from './parse-options.ts';
import { policyOf, policyOptions } from './policy-flags.ts';
import { serverArgs, serverOptions } from './server-args.ts';

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
  const server = serverArgs(values, 'lint');
  if (server !== undefined) return { ...server, format, policy, progress };
  return { source: { kind: 'file', file: positionals[0] as string }, format, policy, progress };
}

const parse = (args: readonly string[]) =>
  parseOptions('lint', args, {
    json: { type: 'boolean', default: false },
    format: { type: 'string' },
    ...serverOptions,
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
