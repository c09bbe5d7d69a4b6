// Section 10 of `npm run bench`: the engine as users run it (dist/, compiled by tsc) against the sources under tsx,
// on the fixtures' valid and invalid arguments, in one process. Issue #11: compiled output must not be slower.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sources from '../src/engine/index.ts';
import type { Fixture } from './fixtures.ts';
import { formatTable } from './format-table.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, type Measurement, measure, pairedRatio } from './harness.ts';

const compiledEntry = new URL('../dist/src/engine/index.js', import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

export interface CompiledRow {
  readonly name: string;
  readonly sources: Measurement;
  readonly compiled: Measurement;
}

/** Needs `npm run build` first (the caller builds when dist/ is missing). */
export function hasCompiledEngine(): boolean {
  return existsSync(fileURLToPath(compiledEntry));
}

/** The engine and the Node worker's hash as dist/ holds them (needs `npm run build` first). */
export async function loadCompiledEngine(): Promise<{ engine: typeof sources; nodeHashText: sources.HashText }> {
  const engine = (await import(compiledEntry.href)) as typeof sources;
  const hash = (await import(new URL('../dist/src/worker/node-hash.js', import.meta.url).href)) as { nodeHashText: sources.HashText };
  return { engine, nodeHashText: hash.nodeHashText };
}

/**
 * Source files changed after dist/ was built (the bench builds dist/ only when it is missing, since other processes
 * of a shared tree may be reading it), so a figure measured on dist/ says what it measured.
 */
export function sourcesNewerThanDist(): string[] {
  const builtAt = statSync(fileURLToPath(compiledEntry)).mtimeMs;
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .map((file) => join('src', file))
    .filter((file) => file.endsWith('.ts') && statSync(join(root, file)).mtimeMs > builtAt);
}

export async function measureCompiledEngine(fixtures: readonly Fixture[]): Promise<CompiledRow[]> {
  const compiled = (await loadCompiledEngine()).engine;
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
