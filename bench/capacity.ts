// Section 12g: capacity. 4,096 tools through one engine with the default caps: how many stay compiled (a call by
// their fingerprint finds them) and the heap the engine retains for them. Each corpus runs in a child process with
// --expose-gc, so the heap figure is the engine's alone:
//   node --expose-gc --import tsx bench/capacity.ts <corpus>
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/engine/index.ts';
import { buildCorpus, type CorpusTool } from './corpus.ts';
import { realCopies, realCorpus } from './real-corpus.ts';

/** The size issue 21 asks to hold. */
export const capacityTools = 4096;

export const capacityCorpora = {
  'real distinct': 'real list copied to 4,096 tools, every schema made distinct',
  'real shared': 'real list copied to 4,096 tools, copies sharing their schemas',
  generated: 'generated corpus of 4,096 tools (bench/corpus.ts)',
} as const;
export type CapacityCorpus = keyof typeof capacityCorpora;

export interface Capacity {
  readonly corpus: CapacityCorpus;
  readonly tools: number;
  readonly accepted: number;
  /** Accepted tools a call by fingerprint still finds after the whole list was compiled. */
  readonly compiled: number;
  readonly cachedSchemas: number;
  readonly cachedTools: number;
  /** Heap retained by the engine after GC, bytes. */
  readonly retainedBytes: number;
  readonly compileMs: number;
}

function toolsOf(corpus: CapacityCorpus): CorpusTool[] {
  if (corpus === 'generated') return buildCorpus(capacityTools);
  return realCopies(realCorpus(), capacityTools, corpus === 'real distinct');
}

/** Runs in the child: the list is held as text (as a host holds a tools/list answer) and parsed inside the measurement. */
function measureHere(corpus: CapacityCorpus, gc: () => void): Capacity {
  const text = JSON.stringify(toolsOf(corpus));
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const engine = createEngine();
  let tools: unknown[] | undefined = JSON.parse(text) as unknown[];
  const started = performance.now();
  const verdicts = engine.compileTools(tools);
  const compileMs = performance.now() - started;
  const accepted = verdicts.filter((verdict) => verdict.status === 'accepted');
  let compiled = 0;
  for (const verdict of accepted) {
    try {
      // A call is how a host uses an entry (the adapter's twins and work plans are built then), and an evicted
      // entry answers with an EngineError.
      engine.validateArguments(verdict.fingerprint, {});
      compiled++;
    } catch {}
  }
  tools = undefined;
  gc();
  gc();
  const retainedBytes = process.memoryUsage().heapUsed - before;
  const stats = engine.stats();
  return {
    corpus,
    tools: verdicts.length,
    accepted: accepted.length,
    compiled,
    cachedSchemas: stats.cachedSchemas,
    cachedTools: stats.cachedTools,
    retainedBytes,
    compileMs,
  };
}

/** Spawns one child per corpus; a child that fails is reported as an error string. */
export function measureCapacity(
  corpora: readonly CapacityCorpus[] = Object.keys(capacityCorpora) as CapacityCorpus[],
): (Capacity | string)[] {
  const script = fileURLToPath(import.meta.url);
  return corpora.map((corpus) => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, corpus], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) return `${corpus}: exit ${child.status}: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`;
    return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Capacity;
  });
}

const MiB = 1024 * 1024;

export function capacityLines(results: readonly (Capacity | string)[]): string[] {
  return results.map((r) =>
    typeof r === 'string'
      ? r
      : `${r.corpus.padEnd(13)} ${capacityCorpora[r.corpus]}: ${r.compiled} of ${r.accepted} accepted tools stay compiled ` +
        `(${r.cachedTools} tools, ${r.cachedSchemas} schemas cached); retained ${(r.retainedBytes / MiB).toFixed(1)} MiB ` +
        `(${(r.retainedBytes / r.tools / 1024).toFixed(1)} KiB a tool); cold compileTools ${r.compileMs.toFixed(0)} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = process.argv[2] as CapacityCorpus;
  if (!(corpus in capacityCorpora)) throw new Error(`corpus is one of ${Object.keys(capacityCorpora).join(', ')}`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  console.log(JSON.stringify(measureHere(corpus, gc)));
}
