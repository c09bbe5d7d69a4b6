import type { Validator, ValidatorOptions } from '../host/node.ts';
import type { Policy } from '../protocol/policy.ts';
import { CliError, type CliIo, exitCodes, usageError } from './cli-io.ts';
import { type Command, helpFor, isCommand, usageOf } from './help.ts';
import { packageVersion } from './package-version.ts';

/** How the CLI gets its validator and version; tests may choose inline mode. */
export interface CliDeps {
  readonly createValidator?: (options: ValidatorOptions) => Validator;
  readonly version?: () => string;
}

/**
 * Runs the CLI with injected I/O and returns the exit code; never throws for user errors. Validation goes through
 * `createValidator` (a worker thread by default), so the CLI has the same time budget as any host. The commands,
 * the engine and the host load only when a command runs, so `--help` and `--version` start fast.
 */
export async function main(argv: readonly string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  let validator: Validator | undefined;
  const open = async (policy: Partial<Policy>): Promise<Validator> => {
    const create = deps.createValidator ?? (await import('../host/node.ts')).createValidator;
    validator = create({ policy });
    return validator;
  };
  try {
    return await run(argv, io, deps, open);
  } catch (error) {
    return reportError(io, wantsJson(options(argv)), error);
  } finally {
    await validator?.close();
  }
}

async function run(argv: readonly string[], io: CliIo, deps: CliDeps, open: OpenValidator): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') return print(io, helpFor(undefined));
  if (command === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !isCommand(topic)) throw usageError(`no help for ${JSON.stringify(topic)}`);
    return print(io, helpFor(topic));
  }
  if (command === '--version') return print(io, `schemaval ${(deps.version ?? packageVersion)()}\n`);
  if (!isCommand(command)) throw usageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
  if (options(rest).some((arg) => arg === '--help' || arg === '-h')) return print(io, helpFor(command));
  if (command === 'lint') {
    const { lintArgs } = await import('./lint-args.ts');
    const options = lintArgs(rest);
    const { lintCommand } = await import('./lint-command.ts');
    return await lintCommand(open, io, options);
  }
  const { validateArgs } = await import('./validate-args.ts');
  const parsed = validateArgs(rest);
  if (parsed.kind === 'tool') {
    const { validateToolCommand } = await import('./validate-tool-command.ts');
    return await validateToolCommand(open, io, parsed);
  }
  const { validateCommand } = await import('./validate-command.ts');
  return await validateCommand(open, io, parsed);
}

/** Starts the validator under the policy the command's flags give (the defaults for the rest). */
export type OpenValidator = (policy: Partial<Policy>) => Promise<Validator>;

function print(io: CliIo, text: string): number {
  io.stdout(text);
  return exitCodes.ok;
}

/** `--json` or `--format json`: errors too are JSON on standard output. */
function wantsJson(args: readonly string[]): boolean {
  return args.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
}

/** The arguments before a `--` (after it, `--json` or `-h` would be a file name). */
function options(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

/**
 * Exit 2 for the CLI's own errors and for operational failures of the validator (an error with a string `code`,
 * such as `TIMEOUT` or `WORKER_CRASHED`): in words on standard error, or `{"error":{"code","message"}}` on
 * standard output with `--json`. Anything else is a bug and propagates.
 */
function reportError(io: CliIo, json: boolean, error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof CliError) && typeof code !== 'string') throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  else if (!(error instanceof CliError)) io.stderr(`schemaval: ${code}: ${message}\n`);
  else if (error.code === 'usage' && !error.brief) io.stderr(`schemaval: ${message}\n${usageHint(error.command as Command | undefined)}`);
  else io.stderr(`schemaval: ${message}\n`);
  return exitCodes.usage;
}

function usageHint(command: Command | undefined): string {
  if (command !== undefined) return `usage: ${usageOf(command, '       ')}\nrun "schemaval ${command} --help" for more\n`;
  return `usage:\n  ${usageOf('lint', '  ')}\n  ${usageOf('validate', '  ')}\nrun "schemaval --help" for more\n`;
}
