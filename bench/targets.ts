// The targets of issue #12, each with its measured ratio and PASS/MISS, gathered from the sections that measured them.
import { type CorpusCompile, warmCompileRatio } from './corpus-compile.ts';
import { type CorpusLint, corpusLintTargetMs } from './corpus-lint.ts';
import { formatRatio } from './format-units.ts';
import { pairedRatio } from './harness.ts';
import type { HostOverhead } from './host-overhead.ts';
import type { IsolationResults } from './isolation.ts';
import { sequentialRatio, throughputFraction } from './isolation-report.ts';
import type { CompileResults, ValidationResult } from './report.ts';

/** Whatever sections ran; a target whose section did not run prints as "not run". */
export interface TargetInputs {
  readonly validation?: readonly ValidationResult[];
  readonly compile?: CompileResults;
  readonly corpusCompile?: CorpusCompile;
  readonly corpusLint?: CorpusLint;
  readonly isolation?: IsolationResults;
  readonly host?: HostOverhead;
}

interface Target {
  readonly label: string;
  readonly bar: string;
  readonly section: string;
  /** The figure as printed and whether it meets the bar; undefined when the section did not run. */
  readonly result: (inputs: TargetInputs) => { figure: string; pass: boolean | null } | undefined;
}

const ratioAtMost = (ratio: number, bar: number) => ({ figure: formatRatio(ratio), pass: ratio <= bar });

/** The bars of issue #12 (items 1, 3 and 4; item 2 is a unit test, item 5 the contender tables). */
export const targets: readonly Target[] = [
  {
    label: 'engine cache hit ÷ cold compileSchema, small',
    bar: '≤ 0.50x',
    section: '2',
    result: ({ compile }) => {
      const small = compile?.get('small');
      const hit = small?.get('engine-hit');
      const cold = small?.get('schemaval');
      return hit && cold ? ratioAtMost(hit.medianNs / cold.medianNs, 0.5) : undefined;
    },
  },
  {
    label: 'warm compileTools(corpus) ÷ raw cfworker cold construction',
    bar: '≤ 1.50x',
    section: '11',
    result: ({ corpusCompile }) => (corpusCompile ? ratioAtMost(warmCompileRatio(corpusCompile), 1.5) : undefined),
  },
  {
    label: 'schemaval lint of the corpus, after start-up',
    bar: `≤ ${corpusLintTargetMs} ms`,
    section: '11',
    result: ({ corpusLint }) =>
      corpusLint ? { figure: `${corpusLint.afterStartMs.toFixed(0)} ms`, pass: corpusLint.afterStartMs <= corpusLintTargetMs } : undefined,
  },
  {
    label: 'engine.validate ÷ raw cfworker, small, valid',
    bar: '≤ 1.30x',
    section: '1',
    result: ({ validation }) => {
      const small = validation?.find((result) => result.fixture.name === 'small')?.byKind.valid;
      const engine = small?.get('engine');
      const cfworker = small?.get('cfworker');
      return engine && cfworker ? ratioAtMost(pairedRatio(engine, cfworker), 1.3) : undefined;
    },
  },
  {
    label: 'worker pipelined throughput ÷ postMessage floor, small',
    bar: '≥ 50%',
    section: '4',
    result: ({ isolation }) => {
      if (!isolation) return undefined;
      const fraction = throughputFraction(isolation, 'small');
      return { figure: `${Math.round(fraction * 100)}%`, pass: fraction >= 0.5 };
    },
  },
  {
    label: 'worker sequential ÷ (floor + in-thread), small',
    bar: '≤ 1.20x',
    section: '4',
    result: ({ isolation }) => (isolation ? ratioAtMost(sequentialRatio(isolation, 'small'), 1.2) : undefined),
  },
  {
    label: 'host adapter, worker mode ÷ plain in-memory callTool',
    bar: 'report',
    section: '5',
    result: ({ host }) => (host ? { figure: formatRatio(host.worker.medianNs / host.plain.medianNs), pass: null } : undefined),
  },
];

/** One line per target: label, bar, figure, PASS / MISS (or "report", or "not run" with the section to run). */
export function targetLines(inputs: TargetInputs): string[] {
  const width = Math.max(...targets.map((target) => target.label.length));
  return targets.map((target) => {
    const head = `${target.label.padEnd(width)}  ${target.bar.padEnd(8)}`;
    const result = target.result(inputs);
    if (result === undefined) return `${head}  not run (section ${target.section})`;
    const mark = result.pass === null ? '' : result.pass ? 'PASS' : 'MISS';
    return `${head}  ${result.figure.padStart(7)}  ${mark}`.trimEnd();
  });
}
