import { usageError } from './cli-io.ts';
import { parseOptions } from './parse-options.ts';
import { policyOf, policyOptions } from './policy-flags.ts';
import { serverArgs, serverOptions } from './server-args.ts';
import type { ValidateOptions } from './validate-command.ts';
import type { ValidateToolOptions } from './validate-tool-command.ts';

/**
 * `schemaval validate [--json] --schema FILE [--instance FILE|-]`, or with a live server's tool instead of a schema
 * file: `--url URL [--header "Name: value"]... | --stdio "CMD ARGS"` `--tool NAME` `[--args JSON | --instance FILE|-]`.
 */
export function validateArgs(
  args: readonly string[],
): ({ readonly kind: 'schema' } & ValidateOptions) | ({ readonly kind: 'tool' } & ValidateToolOptions) {
  const { values, positionals } = parseOptions('validate', args, {
    json: { type: 'boolean', default: false },
    schema: { type: 'string' },
    instance: { type: 'string' },
    tool: { type: 'string' },
    args: { type: 'string' },
    ...serverOptions,
    ...policyOptions,
  });
  if (positionals.length > 0) throw usageError(`unexpected argument ${JSON.stringify(positionals[0])}`, 'validate');
  const json = values.json === true;
  const policy = policyOf(values, 'validate');
  const given = [values.schema, values.url, values.stdio].filter((v) => v !== undefined).length;
  if (given === 0) throw usageError('validate needs --schema FILE, or --url URL or --stdio "CMD ARGS" with --tool NAME', 'validate');
  if (given > 1) throw usageError('validate takes one of --schema FILE, --url URL and --stdio "CMD ARGS"', 'validate');
  const server = serverArgs(values, 'validate');
  if (values.args !== undefined && values.instance !== undefined) {
    throw usageError('--args JSON and --instance FILE both give the arguments: give one', 'validate');
  }
  if (server === undefined) {
    if (values.tool !== undefined) throw usageError('--tool goes with --url or --stdio', 'validate');
    if (values.args !== undefined) throw usageError('--args goes with --tool (with --schema, give --instance FILE|-)', 'validate');
    if (values.progress === true) throw usageError('--progress goes with --url or --stdio', 'validate');
    return { kind: 'schema', schema: values.schema as string, instance: values.instance ?? '-', json, policy };
  }
  if (values.tool === undefined) throw usageError(`${values.url === undefined ? '--stdio' : '--url'} needs --tool NAME`, 'validate');
  return {
    kind: 'tool',
    server,
    tool: values.tool,
    args: values.args !== undefined ? { kind: 'text', text: values.args } : { kind: 'file', file: values.instance ?? '-' },
    json,
    policy,
    progress: values.progress === true,
  };
}
