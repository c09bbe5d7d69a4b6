import type { ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Read =
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'run'; readonly values: Record<string, unknown>; readonly positionals: string[] };

/** What a script's arguments ask: its help, a one-line mistake, or the values to run with. */
export function readScriptArgs(args: readonly string[], config: { options: Options; allowPositionals?: boolean }): Read;

/** Reads process.argv for a script: usage and exit 0 on --help, one line and exit 2 on a mistake. */
export function scriptArgs(config: {
  command: string;
  usage: string;
  options: Options;
  allowPositionals?: boolean;
  args?: readonly string[];
}): { values: Record<string, unknown>; positionals: string[] };
