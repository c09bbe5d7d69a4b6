// Section 9: how long the installed CLI takes to start, as wall time of a child process against `node -e 0` (the
// floor: Node itself). Runs bin/schemaval.js, i.e. the esbuild bundle dist/cli.js (built first by the caller).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Acceptance bar (issue #11): `schemaval --version` within this factor of `node -e 0`. */
export const cliStartTarget = 3;

export interface CliStart {
  readonly floorMs: number;
  readonly rows: readonly { readonly label: string; readonly medianMs: number }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/schemaval.js', import.meta.url));

const cases: readonly { label: string; args: readonly string[]; input?: string }[] = [
  { label: 'schemaval --version', args: [bin, '--version'] },
  { label: 'schemaval --help', args: [bin, '--help'] },
  { label: 'schemaval lint examples/tools.json (worker_threads worker)', args: [bin, 'lint', 'examples/tools.json'] },
  {
    label: 'schemaval validate (worker_threads worker)',
    args: [bin, 'validate', '--schema', 'examples/weather-input.schema.json'],
    input: '{"city":"Oslo","days":3}',
  },
];

function wallMs(args: readonly string[], input?: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: root, input, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
};

/** Medians of `runs` starts each, interleaved with the floor so a busy machine weighs on both alike. */
export function measureCliStart(runs = 21): CliStart {
  const floor: number[] = [];
  const samples = cases.map(() => [] as number[]);
  wallMs(['-e', '0']);
  for (let run = 0; run < runs; run++) {
    floor.push(wallMs(['-e', '0']));
    for (const [index, c] of cases.entries()) samples[index]?.push(wallMs(c.args, c.input));
  }
  return { floorMs: median(floor), rows: cases.map((c, index) => ({ label: c.label, medianMs: median(samples[index] ?? []) })) };
}

/** One line per case: median wall time and its ratio to `node -e 0`. */
export function cliStartLines(start: CliStart): string[] {
  const width = Math.max(...start.rows.map((row) => row.label.length));
  return [
    `${'node -e 0 (floor)'.padEnd(width)}  ${start.floorMs.toFixed(1).padStart(7)} ms`,
    ...start.rows.map(
      (row) => `${row.label.padEnd(width)}  ${row.medianMs.toFixed(1).padStart(7)} ms  ${(row.medianMs / start.floorMs).toFixed(2)}x`,
    ),
  ];
}

/** The acceptance line: `--version`'s ratio against the bar. */
export function cliStartSummary(start: CliStart): string {
  const version = start.rows[0];
  const ratio = version === undefined ? Number.NaN : version.medianMs / start.floorMs;
  return `schemaval --version: ${ratio.toFixed(2)}x of node -e 0 (${ratio <= cliStartTarget ? 'PASS' : 'MISS'}, bar ${cliStartTarget}x)`;
}
