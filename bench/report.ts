// Turns measurements into the tables and summary lines that `npm run bench` prints.
import type { CompileTaskId } from './compile-tasks.ts';
import type { Contender, ContenderId } from './contenders.ts';
import type { BenchSchema, Fixture } from './fixtures.ts';
import { formatTable } from './format-table.ts';
import { formatBytes, formatNs, formatRatio, formatSpread } from './format-units.ts';
import { type Measurement, pairedRatio } from './harness.ts';
import { schemaStats } from './schema-stats.ts';

export type InstanceKind = 'valid' | 'invalid';

/** Section 1 results for one fixture: a measurement per contender and instance. */
export interface ValidationResult {
  readonly fixture: BenchSchema;
  readonly contenders: readonly Contender[];
  readonly byKind: Record<InstanceKind, ReadonlyMap<ContenderId, Measurement>>;
}

/** Section 2 results: a measurement per fixture and compile task. */
export type CompileResults = ReadonlyMap<Fixture['name'], ReadonlyMap<CompileTaskId, Measurement>>;

const get = <K>(map: ReadonlyMap<K, Measurement>, key: K): Measurement => {
  const found = map.get(key);
  if (found === undefined) throw new Error(`no measurement for ${String(key)}`);
  return found;
};

export function fixtureTable(fixtures: readonly BenchSchema[]): string {
  const rows = fixtures.map((fixture) => {
    const stats = schemaStats(fixture.schema);
    const bytes = (value: unknown): string => formatBytes(JSON.stringify(value).length);
    return [
      fixture.name,
      formatBytes(stats.bytes),
      String(stats.subschemas),
      bytes(fixture.valid),
      bytes(fixture.invalid),
      fixture.description,
    ];
  });
  return formatTable(
    [['size', 'schema', 'subschemas', 'valid args', 'invalid args', 'tool'], ...rows],
    ['left', 'right', 'right', 'right', 'right', 'left'],
  );
}

/** One row per contender: valid and invalid per-call times, spread, and the paired ratio to raw cfworker. */
export function validationTable({ contenders, byKind }: ValidationResult): string {
  const cells = (kind: InstanceKind, id: ContenderId): string[] => {
    const m = get(byKind[kind], id);
    return [formatNs(m.medianNs), formatSpread(m.spread), formatRatio(pairedRatio(m, get(byKind[kind], 'cfworker')))];
  };
  return formatTable(
    [
      ['contender', 'valid', '', '×cf', 'invalid', '', '×cf'],
      ...contenders.map((contender) => [contender.label, ...cells('valid', contender.id), ...cells('invalid', contender.id)]),
    ],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** Rows are compile tasks, columns the fixtures. */
export function compileTable(fixtures: readonly Fixture[], names: ReadonlyMap<CompileTaskId, string>, results: CompileResults): string {
  const rows = [...names].map(([id, name]) => [
    name,
    ...fixtures.flatMap((fixture) => {
      const m = get(results.get(fixture.name) ?? new Map(), id);
      return [formatNs(m.medianNs), formatSpread(m.spread)];
    }),
  ]);
  return formatTable(
    [['task', ...fixtures.flatMap((fixture) => [fixture.name, ''])], ...rows],
    ['left', ...fixtures.flatMap(() => ['right', 'right'] as const)],
  );
}

/** Cold-compile ratios with the copy subtracted where a library needs one, and what a cache hit costs. */
export function compileRatioLines(fixtures: readonly Fixture[], results: CompileResults): string[] {
  return fixtures.map((fixture) => {
    const m = results.get(fixture.name) ?? new Map();
    const ns = (id: CompileTaskId): number => get(m, id).medianNs;
    const schemaval = ns('schemaval');
    const cfworker = ns('cfworker') - ns('clone');
    const ajv = ns('ajv') - ns('clone');
    const hit = ns('engine-hit');
    return (
      `${fixture.name.padEnd(6)}  schemaval/cfworker = ${formatRatio(schemaval / cfworker)}, ajv/schemaval = ${formatRatio(ajv / schemaval)}; ` +
      `engine cache hit = ${formatRatio(hit / schemaval)} of a cold compile, fingerprint ≈ ${Math.round((ns('fingerprint') / hit) * 100)}% of the hit`
    );
  });
}

/** The acceptance lines (valid instances) and the same ratios for invalid ones, for information. */
export function summaryLines(results: readonly ValidationResult[], target: number): string[] {
  const lines: string[] = [];
  for (const kind of ['valid', 'invalid'] as const) {
    for (const { fixture, byKind } of results) {
      const ratio = (id: ContenderId, base: ContenderId = 'cfworker'): string =>
        formatRatio(pairedRatio(get(byKind[kind], id), get(byKind[kind], base)));
      const value = pairedRatio(get(byKind[kind], 'schemaval'), get(byKind[kind], 'cfworker'));
      const verdict = kind === 'invalid' ? '' : value <= target ? '  PASS' : '  FAIL';
      lines.push(
        `${`${kind} ${fixture.name}:`.padEnd(22)} schemaval/cfworker = ${formatRatio(value).padStart(6)}${verdict.padEnd(6)}` +
          `  [validateArguments ${ratio('tool')}, engine.validate ${ratio('engine')}; ` +
          `schemaval/cfworker shortCircuit=false ${ratio('schemaval', 'cfworker-full')}, schemaval/ajv ${ratio('schemaval', 'ajv')}]`,
      );
    }
  }
  return lines;
}
