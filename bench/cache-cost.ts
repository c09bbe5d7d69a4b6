// Issue #12 items 1-2: what a cache hit costs next to a cold compile, what a warm `compileTools` over the corpus
// costs next to raw cfworker constructing every validator cold, and the heap a compiled schema retains next to
// the engine's estimate of it. Run: node --expose-gc --import tsx bench/cache-cost.ts
import { readFileSync } from 'node:fs';
import { Validator } from '@cfworker/json-schema';
import { compiledWeight } from '../src/engine/core/compiled-weight.ts';
import { compileSchema, createEngine } from '../src/engine/index.ts';
import { longBaseSchema, pointerBomb } from '../test/fixtures/hostile-inputs.ts';
import { buildCorpus, type CorpusTool, largeToolSchema } from './corpus.ts';
import { fixtures, smallFixture } from './fixtures.ts';
import { measure, pairedRatio } from './harness.ts';

/** Targets of issue #12. */
export const cacheCostTargets = { hitOverCold: 0.5, warmToolsOverCfworker: 1.5 } as const;

export interface CacheCost {
  /** A cache hit (`engine.compile` of a schema compiled before) over a cold `compileSchema`, small fixture. */
  readonly hitOverCold: number;
  readonly hitNs: number;
  readonly coldNs: number;
  /** Warm `engine.compileTools(corpus)` over `new Validator(schema)` for every schema of the corpus, cold. */
  readonly warmToolsOverCfworker: number;
  readonly warmToolsMs: number;
  readonly cfworkerMs: number;
  readonly tools: number;
}

/** Times both comparisons; the corpus ones in alternating rounds, each side on its own fresh copies. */
export async function measureCacheCost(tools: readonly CorpusTool[] = buildCorpus(), rounds = 15): Promise<CacheCost> {
  const engine = createEngine();
  const schema = smallFixture.schema;
  await engine.compile(schema);
  const [hit, cold] = await measure(
    [
      { name: 'cache hit', run: () => engine.compile(schema), async: true },
      { name: 'cold compile', run: () => compileSchema(schema) },
    ],
    { warmupMs: 100, batchMs: 10, budgetMs: 1_500, minRounds: 6, maxRounds: 30 },
  );
  if (hit === undefined || cold === undefined) throw new Error('no measurement');

  const warm = createEngine();
  await warm.compileTools(tools);
  const ratios: number[] = [];
  const warmTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    // cfworker stamps what it indexes and skips stamped nodes later: each round gets unstamped copies.
    let copies: object[] = tools.flatMap((tool) =>
      [tool.inputSchema, tool.outputSchema].filter((s) => s !== undefined).map((s) => structuredClone(s)),
    );
    let start = performance.now();
    for (const copy of copies) new Validator(copy, '2020-12');
    const raw = performance.now() - start;
    copies = [];
    start = performance.now();
    await warm.compileTools(tools);
    const cached = performance.now() - start;
    if (round === 0) continue; // warm-up
    rawTimes.push(raw);
    warmTimes.push(cached);
    ratios.push(cached / raw);
  }
  return {
    hitOverCold: pairedRatio(hit, cold),
    hitNs: hit.medianNs,
    coldNs: cold.medianNs,
    warmToolsOverCfworker: median(ratios),
    warmToolsMs: median(warmTimes),
    cfworkerMs: median(rawTimes),
    tools: tools.length,
  };
}

/** One shape of schema whose retained heap is measured: `make(i)` builds distinct copies of it. */
interface HeapCase {
  readonly label: string;
  readonly make: (i: number) => Record<string, unknown>;
}

/** Real-sized shapes: the bench fixtures, a spread of corpus tools (flat, nested, pydantic, output) and giants. */
export function heapCases(): HeapCase[] {
  const corpus = buildCorpus();
  const picked = corpus.filter((tool, i) => i % 97 === 3 && JSON.stringify(tool.inputSchema).length < 40_000);
  const distinct = (schema: Record<string, unknown>, i: number): Record<string, unknown> => ({ ...schema, $comment: `copy ${i}` });
  return [
    ...fixtures.map((f) => ({ label: `fixture ${f.name}`, make: (i: number) => distinct(f.schema, i) })),
    ...picked.map((tool) => ({ label: `corpus ${tool.name}`, make: (i: number) => distinct(tool.inputSchema, i) })),
    ...corpus
      .filter((tool) => tool.outputSchema !== undefined)
      .slice(0, 2)
      .map((tool) => ({ label: `corpus ${tool.name} output`, make: (i: number) => distinct(tool.outputSchema ?? {}, i) })),
    { label: 'long descriptions (8 × 2 KB)', make: (i: number) => distinct(described(smallFixture.schema, 2_000), i) },
    { label: 'long descriptions (medium, 400 B each)', make: (i: number) => distinct(described(fixtures[1]?.schema ?? {}, 400), i) },
    { label: 'enum of 2,000 strings', make: (i: number) => distinct({ type: 'string', enum: words(2_000) }, i) },
    ...['2025-11-25', '2026-07-28'].map((revision) => ({
      label: `MCP schema ${revision}`,
      make: (i: number) => distinct(specSchema(revision), i),
    })),
    { label: 'enum of 40,000 short strings', make: (i: number) => distinct({ type: 'string', enum: shortWords(40_000) }, i) },
    { label: 'const of 20,000 numbers', make: (i: number) => distinct({ const: Array.from({ length: 20_000 }, (_, n) => n) }, i) },
    { label: 'large 64 KB', make: (i: number) => largeToolSchema(64, i) },
    { label: 'large 250 KB', make: (i: number) => largeToolSchema(250, i) },
    // Issue #17: shapes whose validator index is most of what they retain. Each copy has its own outermost name or
    // base, so no two copies share a pointer string.
    {
      label: 'pointers: 29 × 560-char names over 100',
      make: (i: number) => ({
        type: 'object',
        properties: { [`copy${i}`]: pointerBomb({ levels: 29, nameLength: 560, leaves: 100, bottom: 'properties' }) },
      }),
    },
    {
      label: 'pointers: a 20,000-char $id over 90',
      make: (i: number) => ({ ...longBaseSchema(20_000, 90), $id: `https://copy${i}.example.com/${'a'.repeat(20_000)}` }),
    },
  ];
}

/** The schema with every `description` (and one on each property) padded to about `length` characters. */
function described(schema: Record<string, unknown>, length: number): Record<string, unknown> {
  const pad = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(pad);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === 'enum' || key === 'const' ? value : pad(value);
    if ('type' in out) out.description = `${String(out.description ?? 'A field.')} ${'Lorem ipsum dolor sit amet. '.repeat(length / 28)}`;
    return out;
  };
  return pad(schema) as Record<string, unknown>;
}

/** The MCP specification's own JSON Schema: real-world descriptions, about 100 KB. */
const specSchema = (revision: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/mcp-spec/schema-${revision}.json`, import.meta.url), 'utf8'));

const shortWords = (count: number): string[] => Array.from({ length: count }, (_, i) => i.toString(36));

const words = (count: number): string[] => Array.from({ length: count }, (_, i) => `value-${i.toString(36)}-option`);

export interface HeapRow {
  readonly label: string;
  /** UTF-8 bytes of the schema's JSON. */
  readonly bytes: number;
  readonly subschemas: number;
  readonly values: number;
  /** Heap retained per cached compiled schema (engine entry included) once validated, after GC. */
  readonly retained: number;
  /** What the engine's weight function says. */
  readonly estimate: number;
}

/** Compiles distinct copies of each shape into a cache that never evicts; needs `node --expose-gc`. */
export async function measureRetainedHeap(gc: () => void, cases: readonly HeapCase[] = heapCases()): Promise<HeapRow[]> {
  const rows: HeapRow[] = [];
  for (const { label, make } of cases) {
    const sample = make(0);
    const bytes = new TextEncoder().encode(JSON.stringify(sample)).length;
    const copies = Math.max(8, Math.min(400, Math.floor(8_000_000 / bytes)));
    // Four passes, the median of the last three: the first also pays for code and hidden classes met for the
    // first time, and a collection that lands mid-pass moves one figure.
    const passes: HeapRow[] = [];
    for (let pass = 0; pass < 4; pass++) passes.push(await retainedBy(label, make, copies, bytes, gc));
    const sorted = passes.slice(1).sort((a, b) => a.retained - b.retained);
    if (sorted[1] !== undefined) rows.push(sorted[1]);
  }
  return rows;
}

async function retainedBy(
  label: string,
  make: (i: number) => Record<string, unknown>,
  copies: number,
  bytes: number,
  gc: () => void,
): Promise<HeapRow> {
  const engine = createEngine({ cacheSize: copies + 1, maxCacheBytes: Number.MAX_SAFE_INTEGER });
  await engine.compile(make(0));
  gc();
  gc();
  // Each copy is made inside the measurement and dropped after compiling, as a parsed tools/list answer is:
  // whatever the engine keeps of it (strings included) counts.
  const before = process.memoryUsage().heapUsed;
  let estimate = 0;
  let subschemas = 0;
  let values = 0;
  for (let i = 1; i <= copies; i++) {
    const { result } = await engine.compile(JSON.parse(JSON.stringify(make(i))));
    if (result.status === 'refused') throw new Error(`${label}: refused (${result.refusal.code})`);
    estimate += compiledWeight(result);
    // Once, as a cached entry is used: the adapter's uniqueItems twin and the engine's work plans are built then.
    result.schema.validate({});
    subschemas = result.schema.subschemas;
    values = result.schema.values;
  }
  gc();
  gc();
  const retained = (process.memoryUsage().heapUsed - before) / copies;
  if (engine.stats().cachedSchemas !== copies + 1) throw new Error(`${label}: evicted`);
  return { label, bytes, subschemas, values, retained, estimate: estimate / copies };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (process.argv.includes('--heap')) {
    if (gc === undefined) throw new Error('run with node --expose-gc');
    const rows = await measureRetainedHeap(gc);
    if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
    for (const row of rows) {
      console.log(
        `${row.label.padEnd(40)} ${String(row.bytes).padStart(7)} B ${String(row.subschemas).padStart(5)} subschemas ${String(row.values).padStart(6)} values  ` +
          `retained ${Math.round(row.retained).toString().padStart(8)} B (${(row.retained / row.bytes).toFixed(1)}x)  ` +
          `estimate ${Math.round(row.estimate).toString().padStart(8)} B (${(row.estimate / row.retained).toFixed(2)} of retained)`,
      );
    }
    process.exit(0);
  }
  const cost = await measureCacheCost();
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  console.log(
    `cache hit ${(cost.hitNs / 1000).toFixed(2)} µs vs cold compile ${(cost.coldNs / 1000).toFixed(2)} µs (small): ` +
      `${cost.hitOverCold.toFixed(2)}x (target ≤ ${cacheCostTargets.hitOverCold}x) ${mark(cost.hitOverCold <= cacheCostTargets.hitOverCold)}`,
  );
  console.log(
    `warm compileTools(${cost.tools}) ${cost.warmToolsMs.toFixed(1)} ms vs cfworker cold ${cost.cfworkerMs.toFixed(1)} ms: ` +
      `${cost.warmToolsOverCfworker.toFixed(2)}x (target ≤ ${cacheCostTargets.warmToolsOverCfworker}x) ` +
      mark(cost.warmToolsOverCfworker <= cacheCostTargets.warmToolsOverCfworker),
  );
}
