// Turns section 4's measurements into its tables, the breakdown of a round trip and the acceptance lines.
import { formatTable } from './format-table.ts';
import { formatNs, formatRatio, formatSpread } from './format-units.ts';
import { median, pairedDifference, pairedRatio } from './harness.ts';
import {
  type Busy,
  burstSize,
  type FixtureName,
  type IsolationResults,
  isolationPaths,
  type PathId,
  type PathMeasurements,
} from './isolation.ts';

/** Acceptance bars of the isolation layer. */
export interface IsolationTargets {
  /** Sequential: worker round trip ÷ (floor round trip + in-thread validation), at most this. */
  readonly sequential: number;
  /** Pipelined, small fixture: the worker's throughput as a fraction of the floor's, at least this. */
  readonly pipelined: number;
}

const at = (measurements: PathMeasurements, id: PathId, size: FixtureName) => {
  const found = measurements.get(id)?.get(size);
  if (found === undefined) throw new Error(`no measurement for ${id} on ${size}`);
  return found;
};

/** Worker round trip ÷ (floor + in-thread validation), as the median of per-round ratios. */
export function sequentialRatio({ sequential }: IsolationResults, size: FixtureName): number {
  const worker = at(sequential, 'worker', size).samples;
  const floor = at(sequential, 'floor', size).samples;
  const engine = at(sequential, 'engine', size).samples;
  return median(worker.map((value, i) => value / ((floor[i] as number) + (engine[i] as number))));
}

/** What the layer adds to a round trip: worker − floor − in-thread validation, median of per-round differences. */
function addedByLayer({ sequential }: IsolationResults, size: FixtureName): number {
  const worker = at(sequential, 'worker', size).samples;
  const floor = at(sequential, 'floor', size).samples;
  const engine = at(sequential, 'engine', size).samples;
  return median(worker.map((value, i) => value - (floor[i] as number) - (engine[i] as number)));
}

/** The worker's pipelined throughput as a fraction of the floor's (per-call time of the floor ÷ the worker's). */
export function throughputFraction({ pipelined }: IsolationResults, size: FixtureName, id: PathId = 'worker'): number {
  return pairedRatio(at(pipelined, 'floor', size), at(pipelined, id, size));
}

/** The best fraction validation allows: one worker validates one call at a time, at in-thread speed at best. */
function validationCap({ pipelined, sequential }: IsolationResults, size: FixtureName): number {
  const floor = at(pipelined, 'floor', size).medianNs;
  return Math.min(1, floor / at(sequential, 'engine', size).medianNs);
}

const percent = (fraction: number): string => `${Math.round(fraction * 100)}%`;

/** `812 k/s`, `1.23 M/s`. */
const formatRate = (perCallNs: number): string => {
  const perSecond = 1e9 / perCallNs;
  return perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)} M/s` : `${(perSecond / 1e3).toPrecision(3)} k/s`;
};

const sizesOf = (results: IsolationResults): FixtureName[] => results.fixtures.map((fixture) => fixture.name);

/** Rows are paths, columns the fixtures; then the acceptance ratio and the time the layer adds. */
export function sequentialTable(results: IsolationResults): string {
  const sizes = sizesOf(results);
  const rows = isolationPaths.map((path) => [
    path.label,
    ...sizes.flatMap((size) => {
      const m = at(results.sequential, path.id, size);
      return [formatNs(m.medianNs), formatSpread(m.spread)];
    }),
  ]);
  return formatTable(
    [
      ['sequential: await each call, time per call', ...sizes.flatMap((size) => [size, ''])],
      ...rows,
      ['worker − (floor + in-thread): added by the layer', ...sizes.flatMap((size) => [formatNs(addedByLayer(results, size)), ''])],
      ['worker ÷ (floor + in-thread)', ...sizes.flatMap((size) => [formatRatio(sequentialRatio(results, size)), ''])],
    ],
    ['left', ...sizes.flatMap(() => ['right', 'right'] as const)],
  );
}

/** Rows are the paths that cross the boundary; per-call time (burst ÷ its size), spread and calls per second. */
export function pipelinedTable(results: IsolationResults): string {
  const sizes = sizesOf(results);
  const rows = isolationPaths
    .filter((path) => path.remote)
    .map((path) => [
      path.label,
      ...sizes.flatMap((size) => {
        const m = at(results.pipelined, path.id, size);
        return [formatNs(m.medianNs), formatSpread(m.spread), formatRate(m.medianNs)];
      }),
    ]);
  return formatTable(
    [
      ['pipelined: N calls at once, time per call', ...sizes.flatMap((size) => [`${size} N=${burstSize[size]}`, '', 'calls/s'])],
      ...rows,
      ['worker throughput ÷ floor throughput', ...sizes.flatMap((size) => [percent(throughputFraction(results, size)), '', ''])],
    ],
    ['left', ...sizes.flatMap(() => ['right', 'right', 'right'] as const)],
  );
}

/** `+4.21 µs`, `−812 ns`. */
const formatDelta = (ns: number): string => `${ns < 0 ? '−' : '+'}${formatNs(Math.abs(ns))}`;

/** Where a call's time goes, step by step: each step is the paired difference to the row before it. */
export function breakdownLines(results: IsolationResults): string[] {
  const lines: string[] = [];
  for (const [mode, measurements] of [
    ['sequential', results.sequential],
    ['pipelined', results.pipelined],
  ] as const) {
    for (const size of sizesOf(results)) {
      const m = (id: PathId) => at(measurements, id, size);
      const step = (id: PathId, before: PathId): string => formatDelta(pairedDifference(m(id), m(before)));
      lines.push(
        `${`${mode} ${size}:`.padEnd(18)} floor ${formatNs(m('floor').medianNs)}, Comlink ${step('comlink', 'floor')}, ` +
          `client ${step('client', 'comlink')}, service + validation ${step('worker', 'client')} = ${formatNs(m('worker').medianNs)}` +
          `  (in-thread validation ${formatNs(at(results.sequential, 'engine', size).medianNs)})`,
      );
    }
  }
  return lines;
}

/** Wall time and busy time of each thread per call, on the first fixture: which side bounds a path. */
export function busyTable(results: IsolationResults): string {
  const [first] = sizesOf(results);
  const cells = (busy: Busy): string[] => [formatNs(busy.wall), formatNs(busy.host), formatNs(busy.worker)];
  const rows = isolationPaths.flatMap((path) => {
    const busy = results.busy.get(path.id);
    return busy === undefined ? [] : [[path.label, ...cells(busy.sequential), ...cells(busy.pipelined)]];
  });
  const n = first === undefined ? 0 : burstSize[first];
  return formatTable(
    [
      [`${first}: per call, and each thread's busy time in it`, 'sequential', 'host', 'worker', `pipelined N=${n}`, 'host', 'worker'],
      ...rows,
    ],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** The acceptance lines: sequential for every fixture, pipelined for small (validation bounds the others). */
export function isolationSummaryLines(results: IsolationResults, targets: IsolationTargets): string[] {
  const sizes = sizesOf(results);
  const width = Math.max(...sizes.map((size) => size.length));
  const verdict = (pass: boolean): string => (pass ? '  PASS' : '  FAIL');
  const sequential = sizes.map((size) => {
    const ratio = sequentialRatio(results, size);
    return `isolation sequential ${`${size}:`.padEnd(width + 1)} ${formatRatio(ratio)} of (floor + in-thread)${verdict(ratio <= targets.sequential)}`;
  });
  const pipelined = sizes.map((size) => {
    const fraction = throughputFraction(results, size);
    const head = `isolation pipelined ${`${size}:`.padEnd(width + 1)}  ${percent(fraction)} of the floor's throughput`;
    const cap = `in-thread validation alone allows ≤ ${percent(validationCap(results, size))}`;
    if (size === 'small') return `${head}${verdict(fraction >= targets.pipelined)}  (${cap})`;
    return `${head}  (not judged: validation dominates; ${cap})`;
  });
  return [...sequential, ...pipelined];
}

/** Worker start-up, from creating it to its first answer. */
export function startupLine({ startupMs }: IsolationResults): string {
  const ms = (value: number): string => `${value.toFixed(0)} ms`;
  return (
    `worker start to first answer: bare echo ${ms(startupMs.floor)}, Comlink echo ${ms(startupMs.comlink)}, ` +
    `schemaval ${ms(startupMs.worker)} (tsx, engine load and the first compileTools)`
  );
}
