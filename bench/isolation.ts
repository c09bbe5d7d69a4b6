// Section 4 of `npm run bench`: what the isolation layer costs on top of a bare worker round trip. Every path
// answers one call on a fixture's valid arguments, except the bare client's, which sends `stats` (the product has
// no echo operation: that is the least engine work the client and its lane can carry); sequential calls await each
// answer (latency), pipelined bursts issue many calls at once and wait for them all (throughput).
import { deepStrictEqual } from 'node:assert/strict';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { createEngine } from '../src/engine/index.ts';
import { createValidator, spawnNodeWorker } from '../src/host/node.ts';
import { createWorkerClient } from '../src/host/worker-client.ts';
import { startBareEcho, startComlinkEcho } from './echo-clients.ts';
import type { Fixture } from './fixtures.ts';
import { type HarnessOptions, type Measurement, measure, median, type Task } from './harness.ts';

export type FixtureName = Fixture['name'];

export type PathId = 'floor' | 'comlink' | 'client' | 'worker' | 'engine' | 'inline';

export interface IsolationPath {
  readonly id: PathId;
  readonly label: string;
  /** Crosses a worker boundary, so it is also measured in pipelined bursts. */
  readonly remote: boolean;
}

export const isolationPaths: readonly IsolationPath[] = [
  { id: 'floor', label: 'bare postMessage echo worker (the floor)', remote: true },
  { id: 'comlink', label: 'Comlink echo worker', remote: true },
  // The client and its lane with the least engine work there is: `stats` reads five counters and carries no payload.
  { id: 'client', label: 'schemaval worker client, stats op (least engine work)', remote: true },
  { id: 'worker', label: 'schemaval worker validateArguments', remote: true },
  { id: 'engine', label: 'in-thread engine.validateArguments', remote: false },
  { id: 'inline', label: "in-thread createValidator({ mode: 'inline' }) [async]", remote: false },
];

/** Calls issued at once in one pipelined burst: 1,000, except 100 for the large fixture (~2 ms per validation). */
export const burstSize: Readonly<Record<FixtureName, number>> = { small: 1_000, medium: 1_000, large: 100 };

export const sequentialOptions: HarnessOptions = { warmupMs: 150, batchMs: 10, budgetMs: 4_000, minRounds: 6, maxRounds: 30 };
export const pipelinedOptions: HarnessOptions = { warmupMs: 150, batchMs: 20, budgetMs: 5_000, minRounds: 6, maxRounds: 20 };
/** The time budget of the schemaval paths (see measureIsolation). */
const benchBudgetMs = 5_000;
/** Busy time is sampled in rounds (all paths in turn, medians over rounds) of this long a run per path and mode. */
const busyRounds = 5;
const busyMs = 50;

/** Measurements by path and fixture; pipelined ones are per call (a burst's time ÷ its size). */
export type PathMeasurements = ReadonlyMap<PathId, ReadonlyMap<FixtureName, Measurement>>;

/** Wall time per call, and how long each thread was busy in it (event-loop utilisation), in nanoseconds. */
export interface Busy {
  readonly wall: number;
  readonly host: number;
  readonly worker: number;
}

export interface IsolationResults {
  readonly fixtures: readonly Fixture[];
  readonly sequential: PathMeasurements;
  readonly pipelined: PathMeasurements;
  /** Busy time per call of the paths that cross the boundary, on the first fixture. */
  readonly busy: ReadonlyMap<PathId, Readonly<Record<'sequential' | 'pipelined', Busy>>>;
  /** Milliseconds from creating each worker to its first answer (for schemaval: tsx, engine load, first compile). */
  readonly startupMs: Readonly<Record<'floor' | 'comlink' | 'worker', number>>;
}

/** A worker thread's event-loop utilisation, since `since` if given. */
type Utilization = (since?: EventLoopUtilization) => EventLoopUtilization;

/** Starts every path, checks its answers, measures, and closes every worker again (also on failure). */
export async function measureIsolation(fixtures: readonly Fixture[]): Promise<IsolationResults> {
  const [first] = fixtures;
  if (first === undefined) throw new Error('no fixtures');
  const closers: (() => Promise<void> | void)[] = [];
  try {
    const startupMs = { floor: 0, comlink: 0, worker: 0 };
    const timed = async <T>(key: keyof typeof startupMs, start: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const value = await start();
      startupMs[key] = performance.now() - t0;
      return value;
    };

    const floor = await timed('floor', startBareEcho);
    closers.push(() => floor.close());
    const comlink = await timed('comlink', startComlinkEcho);
    closers.push(() => comlink.close());
    // schemaval's own spawn, watched so its workers' utilisation can be read; the bare client is configured as
    // createValidator configures it (256 calls per message). Both get a generous budget: on a loaded machine a cold
    // compile of the large schema can pass the default 250 ms, and the budget's value costs nothing per call (the
    // watchdog looks every 50 ms either way).
    const spawned = { client: [] as Worker[], worker: [] as Worker[] };
    const client = createWorkerClient({
      spawn: spawnNodeWorker({ onSpawn: (w) => spawned.client.push(w) }),
      timeBudgetMs: benchBudgetMs,
      maxBatch: 256,
      now: () => performance.now(),
      engine: {},
    });
    closers.push(() => client.close());
    const worker = createValidator({
      timeBudgetMs: benchBudgetMs,
      spawn: spawnNodeWorker({ onSpawn: (w) => spawned.worker.push(w) }),
    });
    closers.push(() => worker.close());
    const inline = createValidator({ mode: 'inline' });
    closers.push(() => inline.close());
    const engine = createEngine();
    await timed('worker', () => compileTool(worker, first));
    const latest =
      (list: readonly Worker[]): Utilization =>
      (since) => {
        const last = list.at(-1);
        if (last === undefined) throw new Error('the worker has not started');
        return last.performance.eventLoopUtilization(since);
      };
    const utilizations = new Map<PathId, Utilization>([
      ['floor', floor.utilization],
      ['comlink', comlink.utilization],
      ['client', latest(spawned.client)],
      ['worker', latest(spawned.worker)],
    ]);

    const calls = new Map<FixtureName, Record<PathId, () => unknown>>();
    const callOf = (id: PathId, fixture: Fixture): (() => unknown) => {
      const byPath = calls.get(fixture.name);
      if (byPath === undefined) throw new Error(`no calls for ${fixture.name}`);
      return byPath[id];
    };
    for (const fixture of fixtures) {
      const args = fixture.valid;
      const onWorker = await compileTool(worker, fixture);
      const onInline = await compileTool(inline, fixture);
      const onEngine = await compileTool(engine, fixture);
      const byPath: Record<PathId, () => unknown> = {
        floor: () => floor.echo(args),
        comlink: () => comlink.echo(args),
        client: () => client.send({ op: 'stats' }),
        worker: () => worker.validateArguments(onWorker, args),
        engine: () => engine.validateArguments(onEngine, args),
        inline: () => inline.validateArguments(onInline, args),
      };
      calls.set(fixture.name, byPath);
      // Every path answers as it should before anything is timed.
      for (const id of ['floor', 'comlink'] as const) deepStrictEqual(await byPath[id](), args);
      const stats = (await byPath.client()) as { validations?: unknown };
      if (typeof stats.validations !== 'number') throw new Error(`${fixture.name}: the client's stats answer has no counters`);
      for (const id of ['worker', 'engine', 'inline'] as const) {
        const outcome = (await byPath[id]()) as { status?: unknown };
        if (outcome.status !== 'valid') throw new Error(`${fixture.name}: ${id} did not find the valid arguments valid`);
      }
    }

    const sequentialTasks: KeyedTask[] = [];
    const pipelinedTasks: KeyedTask[] = [];
    for (const fixture of fixtures) {
      for (const path of isolationPaths) {
        const call = callOf(path.id, fixture);
        const key = { id: path.id, size: fixture.name };
        const name = `${path.id} ${fixture.name}`;
        sequentialTasks.push({ ...key, task: { name, async: path.id !== 'engine', run: call } });
        if (!path.remote) continue;
        const n = burstSize[fixture.name];
        pipelinedTasks.push({ ...key, calls: n, task: { name, async: true, run: burst(call as () => Promise<unknown>, n) } });
      }
    }
    // The harness warms each task up before timing it; one burst first lets every worker see pipelined load too.
    for (const { task } of pipelinedTasks) await task.run();

    const sequential = await measureByPath(sequentialTasks, sequentialOptions);
    const pipelined = await measureByPath(pipelinedTasks, pipelinedOptions);

    const samples = new Map<PathId, Record<'sequential' | 'pipelined', Busy[]>>();
    for (let round = 0; round < busyRounds; round++) {
      for (const [id, utilization] of utilizations) {
        const call = callOf(id, first) as () => Promise<unknown>;
        const n = burstSize[first.name];
        const into = samples.get(id) ?? { sequential: [], pipelined: [] };
        samples.set(id, into);
        into.sequential.push(await busyPerCall(call, 1, utilization));
        into.pipelined.push(await busyPerCall(burst(call, n), n, utilization));
      }
    }
    const busy = new Map(
      [...samples].map(([id, { sequential, pipelined }]) => [id, { sequential: medians(sequential), pipelined: medians(pipelined) }]),
    );
    return { fixtures, sequential, pipelined, busy, startupMs };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

interface ToolCompiler {
  compileTools(
    tools: readonly unknown[],
  ):
    | readonly { readonly status: string; readonly fingerprint: string }[]
    | Promise<readonly { readonly status: string; readonly fingerprint: string }[]>;
}

/** Compiles the fixture as a tool's input schema and returns the tool's fingerprint. */
async function compileTool(validator: ToolCompiler, fixture: Fixture): Promise<string> {
  const [verdict] = await validator.compileTools([{ name: `bench_${fixture.name}`, inputSchema: fixture.schema }]);
  if (verdict?.status !== 'accepted') throw new Error(`${fixture.name}: the tool was refused`);
  return verdict.fingerprint;
}

/** `n` calls issued in the same tick, resolved when every answer is back. */
function burst(call: () => Promise<unknown>, n: number): () => Promise<unknown[]> {
  return () => {
    const pending: Promise<unknown>[] = new Array(n);
    for (let i = 0; i < n; i++) pending[i] = call();
    return Promise.all(pending);
  };
}

/** A task filed under a path and fixture; `calls` is how many calls one run makes (a burst's size). */
interface KeyedTask {
  readonly id: PathId;
  readonly size: FixtureName;
  readonly calls?: number;
  readonly task: Task;
}

/** Times the tasks together (interleaved rounds) and files their per-call measurements by path and fixture. */
async function measureByPath(tasks: readonly KeyedTask[], options: HarnessOptions): Promise<PathMeasurements> {
  const measured = await measure(
    tasks.map(({ task }) => task),
    options,
  );
  const out = new Map<PathId, Map<FixtureName, Measurement>>();
  tasks.forEach(({ id, size, calls = 1 }, i) => {
    const m = measured[i] as Measurement;
    const perCall: Measurement = { ...m, medianNs: m.medianNs / calls, samples: m.samples.map((sample) => sample / calls) };
    const bySize = out.get(id) ?? new Map<FixtureName, Measurement>();
    out.set(id, bySize.set(size, perCall));
  });
  return out;
}

/** Runs `run` (which makes `calls` calls) for `busyMs` and returns how long each thread was busy per call. */
async function busyPerCall(run: () => Promise<unknown>, calls: number, utilization: Utilization): Promise<Busy> {
  const host = performance.eventLoopUtilization();
  const worker = utilization();
  const start = performance.now();
  let done = 0;
  while (performance.now() - start < busyMs) {
    await run();
    done += calls;
  }
  const wall = ((performance.now() - start) * 1e6) / done;
  const perCall = (delta: EventLoopUtilization): number => (delta.active * 1e6) / done;
  return { wall, host: perCall(performance.eventLoopUtilization(host)), worker: perCall(utilization(worker)) };
}

/** Field-wise medians of busy samples. */
function medians(samples: readonly Busy[]): Busy {
  const of = (field: keyof Busy): number => median(samples.map((sample) => sample[field]));
  return { wall: of('wall'), host: of('host'), worker: of('worker') };
}
