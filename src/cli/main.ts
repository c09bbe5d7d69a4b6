import { parseArgs } from 'node:util';
import { engineVersion } from '../engine/index.ts';
import { createValidator as createNodeValidator, type Validator, type ValidatorOptions } from '../host/node.ts';
import { type CliIo, exitCodes, UsageError } from './cli-io.ts';
import { lintCommand } from './lint-command.ts';
import { validateCommand } from './validate-command.ts';

export const usage = `usage:
  schemaval lint [--json] FILE|-
      Verdict for each tool of a tools/list result ({"tools":[...]}) or an array of tools.
      Exit 0 all accepted, 1 some refused, 2 usage or unreadable input.
  schemaval validate [--json] --schema FILE [--instance FILE|-]
      Validate one JSON instance (default: standard input), parsed losslessly.
      Exit 0 valid, 1 invalid (one issue per line), 2 schema refused or usage.
  schemaval --help | --version
`;

/** How the CLI gets its validator; tests may choose inline mode. */
export interface CliDeps {
  readonly createValidator?: (options: ValidatorOptions) => Validator;
}

/**
 * Runs the CLI with injected I/O and returns the exit code; never throws for user errors. Validation goes through
 * `createValidator` (a worker thread by default), so the CLI has the same time budget as any host.
 */
export async function main(argv: readonly string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  let validator: Validator | undefined;
  const open = (): Validator => {
    validator = (deps.createValidator ?? createNodeValidator)({});
    return validator;
  };
  try {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help') {
      io.stdout(usage);
      return exitCodes.ok;
    }
    if (command === '--version') {
      io.stdout(`schemaval ${engineVersion}\n`);
      return exitCodes.ok;
    }
    if (command === 'lint') {
      const { values, positionals } = guard(() =>
        parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true }),
      );
      if (positionals.length !== 1) throw new UsageError('lint takes exactly one FILE (or - for standard input)');
      return await lintCommand(open(), io, { file: positionals[0] as string, json: values.json === true });
    }
    if (command === 'validate') {
      const { values, positionals } = guard(() =>
        parseArgs({
          args: rest,
          options: { json: { type: 'boolean', default: false }, schema: { type: 'string' }, instance: { type: 'string', default: '-' } },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
      if (typeof values.schema !== 'string') throw new UsageError('validate needs --schema FILE');
      return await validateCommand(open(), io, {
        schema: values.schema,
        instance: typeof values.instance === 'string' ? values.instance : '-',
        json: values.json === true,
      });
    }
    throw new UsageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`schemaval: ${error.message}\n\n${usage}`);
      return exitCodes.usage;
    }
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') {
      // An operational failure of the validator (a crashed worker): say so, never a stack trace.
      io.stderr(`schemaval: ${code}: ${error instanceof Error ? error.message : String(error)}\n`);
      return exitCodes.usage;
    }
    throw error;
  } finally {
    await validator?.close();
  }
}

/** Turns node:util's argument errors into usage errors. */
function guard<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
