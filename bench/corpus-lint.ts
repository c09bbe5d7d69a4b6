// Section 11b: `schemaval lint` on the whole corpus in one file, as wall time of the installed command, minus the
// wall time of linting examples/tools.json (process start, CLI load and worker start-up: "after start-up").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusTool } from './corpus.ts';
import { median } from './harness.ts';

/** Acceptance bar (issue #12 item 3): the corpus linted in at most this many ms after start-up. */
export const corpusLintTargetMs = 1_000;

export interface CorpusLint {
  readonly smallMs: number;
  readonly corpusMs: number;
  /** Median of per-run differences corpus − small. */
  readonly afterStartMs: number;
  readonly runs: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/schemaval.js', import.meta.url));

function lintMs(file: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, 'lint', file], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0 && result.status !== 1) throw new Error(`schemaval lint ${file}: exit ${result.status}: ${result.stderr}`);
  return ms;
}

/** Runs both lints `runs` times, interleaved; needs the built CLI (dist/cli.js). */
export function measureCorpusLint(tools: readonly CorpusTool[], runs = 5): CorpusLint {
  const dir = mkdtempSync(join(tmpdir(), 'schemaval-bench-'));
  try {
    const file = join(dir, 'corpus-tools.json');
    writeFileSync(file, JSON.stringify({ tools }));
    lintMs('examples/tools.json');
    const small: number[] = [];
    const corpus: number[] = [];
    for (let run = 0; run < runs; run++) {
      small.push(lintMs('examples/tools.json'));
      corpus.push(lintMs(file));
    }
    return {
      smallMs: median(small),
      corpusMs: median(corpus),
      afterStartMs: median(corpus.map((ms, i) => ms - (small[i] as number))),
      runs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function corpusLintLines(lint: CorpusLint, tools: number): string[] {
  return [
    `schemaval lint examples/tools.json (start-up)   ${lint.smallMs.toFixed(0).padStart(6)} ms`,
    `schemaval lint corpus (${tools} tools, one file)   ${lint.corpusMs.toFixed(0).padStart(6)} ms`,
    `after start-up (median of ${lint.runs} paired runs)       ${lint.afterStartMs.toFixed(0).padStart(6)} ms`,
  ];
}
