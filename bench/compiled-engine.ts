// Section 10 of `npm run bench`: the engine as users run it (dist/, compiled by tsc) against the sources under tsx,
// on the fixtures' valid and invalid arguments, in one process. Issue #11: compiled output must not be slower.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as sources from '../src/engine/index.ts';
import type { Fixture } from './fixtures.ts';
import { formatTable } from './format-table.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, type Measurement, measure, pairedRatio } from './harness.ts';

const compiledEntry = new URL('../dist/src/engine/index.js', import.meta.url);

export interface CompiledRow {
  readonly name: string;
  readonly sources: Measurement;
  readonly compiled: Measurement;
}

/** Needs `npm run build` first (the caller builds when dist/ is missing). */
export function hasCompiledEngine(): boolean {
  return existsSync(fileURLToPath(compiledEntry));
}

export async function measureCompiledEngine(fixtures: readonly Fixture[]): Promise<CompiledRow[]> {
  const compiled = (await import(compiledEntry.href)) as typeof sources;
  const rows: CompiledRow[] = [];
  for (const fixture of fixtures) {
    const fromSources = sources.compileSchema(fixture.schema);
    const fromDist = compiled.compileSchema(fixture.schema);
    if (fromSources.status === 'refused' || fromDist.status === 'refused') throw new Error(`${fixture.name}: refused`);
    for (const kind of ['valid', 'invalid'] as const) {
      const instance = fixture[kind];
      const [a, b] = await measure(
        [
          { name: 'sources', async: false, run: () => fromSources.schema.validate(instance) },
          { name: 'compiled', async: false, run: () => fromDist.schema.validate(instance) },
        ],
        defaultHarnessOptions,
      );
      rows.push({ name: `${kind} ${fixture.name}`, sources: a as Measurement, compiled: b as Measurement });
    }
  }
  return rows;
}

export function compiledTable(rows: readonly CompiledRow[]): string {
  return formatTable(
    [
      ['arguments', 'sources (tsx)', 'dist (compiled)', 'compiled ÷ sources'],
      ...rows.map((r) => [
        r.name,
        formatNs(r.sources.medianNs),
        formatNs(r.compiled.medianNs),
        `${pairedRatio(r.compiled, r.sources).toFixed(2)}x`,
      ]),
    ],
    ['left', 'right', 'right', 'right'],
  );
}
