// The bench's command line: `--only <section>` and `--help`. Kept apart from the sections, which import every
// library compared, so that reading the options costs nothing.
import { parseArgs } from 'node:util';

/** `--only <section>` runs part of the benchmark (handy while working on one section); no option runs everything. */
export const sectionHelp = {
  isolation: 'section 4: worker mode against a bare worker_threads round trip',
  gateway: 'section 6: tools/call through the /mcp gateway in workerd',
  invalid: 'sections 7 and 8: invalid instances, hostile inputs, patterns',
  cli: 'section 9: CLI start-up',
  compiled: 'section 10: dist/ against the sources',
  contenders: 'section 1: validation per call, every contender',
  corpus: 'section 11: the generated corpus, compile and lint',
  real: 'section 12: issue 21 on the real and the generated corpus',
  targets: 'the sections the issue 12 and 21 targets need (1, 2, 4, 5, 11, 12), then both target tables',
} as const;
export type Section = keyof typeof sectionHelp;

export const usage = [
  'usage: npm run bench [-- --only <section>]',
  '',
  'Without options every section runs (about 10 minutes on 2 cores). Sections:',
  ...Object.entries(sectionHelp).map(([name, help]) => `  --only ${name.padEnd(11)} ${help}`),
  '  --help, -h         print this and exit',
].join('\n');

export type BenchArgs =
  | { readonly kind: 'run'; readonly only: Section | undefined }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Reads the command line; an unknown option, a stray argument or an unknown section is an error of one line. */
export function parseBenchArgs(args: readonly string[] = process.argv.slice(2)): BenchArgs {
  let values: { only?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    return { kind: 'error', message: `${(error instanceof Error ? error.message : String(error)).split('\n')[0]} (--help for usage)` };
  }
  if (values.help) return { kind: 'help' };
  if (values.only === undefined) return { kind: 'run', only: undefined };
  if (!Object.hasOwn(sectionHelp, values.only)) {
    return { kind: 'error', message: `--only takes ${Object.keys(sectionHelp).join(', ')}, not ${JSON.stringify(values.only)}` };
  }
  return { kind: 'run', only: values.only as Section };
}

/** The section to run, for the sections module; the entry has already answered help and errors. */
export function benchOnly(): Section | undefined {
  const args = parseBenchArgs();
  if (args.kind !== 'run') throw new Error('bench/run.ts handles --help and errors before the sections load');
  return args.only;
}
