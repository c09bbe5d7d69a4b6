// The targets of issue 21, each on the real corpus and the generated one where it applies, with min/median/max
// where runs repeat and PASS/MISS; gathered from section 12 (and section 5 for the host path).
import type { Bytes } from './bytes.ts';
import type { Capacity } from './capacity.ts';
import type { ColdCompile } from './cold-compile.ts';
import type { CorpusLint } from './corpus-lint.ts';
import type { CorpusPaths } from './corpus-paths.ts';
import { type EdgeValidate, edgeValidateRatio, edgeValidateTarget } from './edge-validate-latency.ts';
import { formatTable } from './format-table.ts';
import type { HostOverhead } from './host-overhead.ts';
import type { AllWrong, LargeCase } from './large-cases.ts';
import { formatSpreadOf, roundRatios, type Spread, spreadOf } from './spread.ts';

/** What section 12 measured on one corpus. */
export interface CorpusSide {
  readonly paths?: CorpusPaths;
  readonly large?: LargeCase;
  /** The engine of dist/, hashed with node:crypto, as the Node worker does. */
  readonly cold?: ColdCompile;
  /** The same with the engine's default, portable SHA-256 (browsers, workerd). */
  readonly coldPortable?: ColdCompile;
  /** The sources under tsx, node:crypto: what the rows before 2026-12-06 measured. */
  readonly coldSources?: ColdCompile;
  readonly lint?: CorpusLint;
  readonly capacity?: Capacity | string;
}

export interface Issue21Inputs {
  readonly real: CorpusSide;
  readonly generated: CorpusSide;
  readonly realShared?: Capacity | string;
  readonly realAsGatheredLint?: CorpusLint;
  readonly allWrong?: AllWrong;
  readonly host?: HostOverhead;
  readonly bytes?: Bytes;
  /** Section 6b: workerd always with the targets, wrangler dev only when section 6 ran. */
  readonly edgeValidate?: EdgeValidate;
}

/** A figure as printed and whether it meets the bar (null: reported, no bar). */
interface Figure {
  readonly text: string;
  readonly pass: boolean | null;
}

interface Target {
  readonly label: string;
  readonly bar: string;
  /** Per corpus; `single` for a target measured once (its figure goes in the real column). */
  readonly real?: (inputs: Issue21Inputs) => Figure | string | undefined;
  readonly generated?: (inputs: Issue21Inputs) => Figure | string | undefined;
  readonly single?: (inputs: Issue21Inputs) => Figure | string | undefined;
}

const ratio = (spread: Spread | undefined, bar: number): Figure | undefined =>
  spread && { text: `${formatSpreadOf(spread, (v) => v.toFixed(2))}x`, pass: spread.median <= bar };
const ms = (spread: Spread | undefined, bar: number): Figure | undefined =>
  spread && { text: `${formatSpreadOf(spread, (v) => v.toFixed(0))} ms`, pass: spread.median <= bar };
const atMost = (value: number | undefined, bar: number, text: (v: number) => string): Figure | undefined =>
  value === undefined ? undefined : { text: text(value), pass: value <= bar };

const stayCompiled = (capacity: Capacity | string | undefined): Figure | string | undefined => {
  if (typeof capacity !== 'object') return capacity === undefined ? undefined : 'failed';
  return { text: `${capacity.compiled}/${capacity.accepted}`, pass: capacity.compiled === capacity.accepted };
};
const retained = (capacity: Capacity | string | undefined): Figure | undefined =>
  typeof capacity === 'object'
    ? {
        text: `${(capacity.retainedBytes / 1024 / 1024).toFixed(1)} MiB, ${(capacity.retainedBytes / capacity.tools / 1024).toFixed(1)} KiB/tool`,
        pass: null,
      }
    : undefined;
/** Both sides of a corpus target from one accessor. */
const both = (read: (side: CorpusSide) => Figure | string | undefined) => ({
  real: (inputs: Issue21Inputs) => read(inputs.real),
  generated: (inputs: Issue21Inputs) => read(inputs.generated),
});

export const issue21LintTargetMs = 600;

export const issue21Targets: readonly Target[] = [
  { label: '4,096 distinct tools stay compiled, default caps', bar: 'all', ...both((s) => stayCompiled(s.capacity)) },
  { label: '  retained heap of those 4,096 tools', bar: 'report', ...both((s) => retained(s.capacity)) },
  { label: '4,096 tools sharing the real schemas stay compiled', bar: 'all', single: (i) => stayCompiled(i.realShared) },
  { label: 'validate(schema object) ÷ by fingerprint, corpus pass', bar: '≤ 1.10x', ...both((s) => ratio(s.paths?.objectOverPrint, 1.1)) },
  {
    label: 'validate(schema object) ÷ by fingerprint, large schema',
    bar: '≤ 1.10x',
    ...both((s) => ratio(s.large?.objectOverPrint, 1.1)),
  },
  {
    label: '  the same, schema object deeply frozen',
    bar: 'report',
    ...both((s) => (s.large ? { text: `${formatSpreadOf(s.large.frozenOverPrint, (v) => v.toFixed(2))}x`, pass: null } : undefined)),
  },
  {
    label: 'explain a wrong call ÷ cfworker full, per-tool median',
    bar: '≤ 2.00x',
    ...both((s) => atMost(s.paths?.invalidPerTool.median, 2, (v) => `${v.toFixed(2)}x`)),
  },
  {
    label: 'explain a wrong call ÷ cfworker full, per-tool p90',
    bar: '≤ 3.00x',
    ...both((s) => atMost(s.paths?.invalidPerTool.p90, 3, (v) => `${v.toFixed(2)}x`)),
  },
  {
    label: '  the same over a pass of all wrong calls',
    bar: 'report',
    ...both((s) => (s.paths ? { text: `${formatSpreadOf(s.paths.invalidPass, (v) => v.toFixed(2))}x`, pass: null } : undefined)),
  },
  { label: 'one wrong leaf on the large schema ÷ cfworker full', bar: '≤ 2.50x', ...both((s) => ratio(s.large?.wrongLeaf, 2.5)) },
  { label: '186 KB of all-wrong 26-property objects', bar: '≤ 60 ms', single: (i) => ms(i.allWrong?.ms, 60) },
  { label: 'cold compileTools (dist/) ÷ raw cfworker construction', bar: '≤ 3.00x', ...both((s) => ratio(s.cold?.ratio, 3)) },
  {
    label: '  the same with the portable SHA-256',
    bar: 'report',
    ...both((s) => (s.coldPortable ? { text: `${formatSpreadOf(s.coldPortable.ratio, (v) => v.toFixed(2))}x`, pass: null } : undefined)),
  },
  {
    label: '  the same, sources under tsx',
    bar: 'report',
    ...both((s) => (s.coldSources ? { text: `${formatSpreadOf(s.coldSources.ratio, (v) => v.toFixed(2))}x`, pass: null } : undefined)),
  },
  {
    label: 'lint of 1,728 tools, after start-up',
    bar: `≤ ${issue21LintTargetMs} ms`,
    ...both((s) => atMost(s.lint?.afterStartMs, issue21LintTargetMs, (v) => `${v.toFixed(0)} ms`)),
  },
  {
    label: 'lint of the real corpus as gathered, after start-up',
    bar: `≤ ${issue21LintTargetMs} ms`,
    single: (i) => atMost(i.realAsGatheredLint?.afterStartMs, issue21LintTargetMs, (v) => `${v.toFixed(0)} ms`),
  },
  {
    label: 'worker-mode callTool ÷ plain SDK callTool',
    bar: '≤ 3.00x',
    single: (i) => ratio(i.host ? spreadOf(roundRatios(i.host.worker, i.host.plain)) : undefined, 3),
  },
  {
    label: '  inline-mode callTool ÷ plain SDK callTool',
    bar: 'report',
    single: (i) =>
      i.host
        ? { text: `${formatSpreadOf(spreadOf(roundRatios(i.host.inline, i.host.plain)), (v) => v.toFixed(2))}x`, pass: null }
        : undefined,
  },
  { label: 'valid calls, corpus pass ÷ raw cfworker', bar: '≤ 1.25x', ...both((s) => ratio(s.paths?.validPass, 1.25)) },
  {
    label: 'page download, gzip, up front (as built)',
    bar: '≤ 120 KB',
    single: (i) => atMost(i.bytes?.hostAndWorker, 120 * 1024, (v) => `${(v / 1024).toFixed(1)} KB`),
  },
  {
    label: 'tarball, unpacked',
    bar: '≤ 4 MB',
    single: (i) =>
      i.bytes?.tarball
        ? atMost(i.bytes.tarball.unpacked, 4 * 1024 * 1024, (v) => `${(v / 1024 / 1024).toFixed(2)} MB`)
        : i.bytes && 'failed',
  },
  {
    label: 'edge /v1/validate p50 ÷ trivial Worker, workerd',
    bar: `≤ ${edgeValidateTarget.toFixed(2)}x`,
    single: (i) => ratio(edgeValidateRatio(i.edgeValidate, 'workerd'), edgeValidateTarget),
  },
  {
    label: '  the same under wrangler dev',
    bar: 'report',
    single: (i) => {
      const spread = edgeValidateRatio(i.edgeValidate, 'wrangler dev');
      return spread ? { text: `${formatSpreadOf(spread, (v) => v.toFixed(2))}x`, pass: null } : 'not run (see --only gateway)';
    },
  },
];

const cells = (figure: Figure | string | undefined): [string, string] => {
  if (figure === undefined) return ['not run', ''];
  if (typeof figure === 'string') return [figure, ''];
  return [figure.text, figure.pass === null ? '' : figure.pass ? 'PASS' : 'MISS'];
};

/** The table: one row per target, the real and the generated corpus side by side. */
export function issue21Lines(inputs: Issue21Inputs): string[] {
  const rows = issue21Targets.map((target) => {
    const real = target.single ? cells(target.single(inputs)) : cells(target.real?.(inputs));
    const generated: [string, string] = target.single ? ['(one case)', ''] : cells(target.generated?.(inputs));
    return [target.label, target.bar, ...real, ...generated];
  });
  return formatTable(
    [['target', 'bar', 'real', '', 'generated', ''], ...rows],
    ['left', 'left', 'right', 'left', 'right', 'left'],
    '',
  ).split('\n');
}
