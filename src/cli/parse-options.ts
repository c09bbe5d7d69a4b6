import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './cli-io.ts';
import type { Command } from './command.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `util.parseArgs` (strict, positionals allowed) whose errors become one-line usage errors of `command`, e.g.
 * `unknown option --verbose (see schemaval lint --help)`, instead of Node's own paragraph about positionals.
 */
export function parseOptions<T extends Options>(command: Command, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError('usage', `${optionProblem(error)} (see schemaval ${command} --help)`, command, { brief: true });
  }
}

/** What node:util's error says, in our words: which option, and what is wrong with it. */
function optionProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(?:-\w, )?(--?[^' ]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(message);
  if (missing) return `option ${missing[1]} needs a value`;
  const extra = /^Option '(?:-\w, )?(--?[^' ]+)' does not take an argument/.exec(message);
  if (extra) return `option ${extra[1]} takes no value`;
  return message.split('\n')[0] as string;
}
