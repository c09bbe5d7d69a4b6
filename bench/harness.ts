// A small timing harness: warm up, size batches to a target duration, then time batches of every task in
// turn (round-robin), so load drift on a shared machine hits all contenders of a comparison alike.

/** One operation to time. An async task's promise is awaited, so it pays one await per operation. */
export interface Task {
  readonly name: string;
  readonly run: () => unknown;
  readonly async?: boolean;
}

export interface HarnessOptions {
  /** Time spent running each task before measuring, to let the JIT settle. */
  readonly warmupMs: number;
  /** Target duration of one measured batch (a batch holds at least one operation). */
  readonly batchMs: number;
  /** Time for the measured rounds of one `measure` call; the round count is fitted to it within the bounds below. */
  readonly budgetMs: number;
  readonly minRounds: number;
  readonly maxRounds: number;
}

/** Per-operation times of one task, in nanoseconds. */
export interface Measurement {
  readonly name: string;
  readonly medianNs: number;
  /** Median absolute deviation of the batch figures, relative to the median (0.05 = ±5%). */
  readonly spread: number;
  readonly opsPerBatch: number;
  /** Per-operation time of each measured batch, in round order. */
  readonly samples: readonly number[];
}

export const defaultHarnessOptions: HarnessOptions = { warmupMs: 100, batchMs: 10, budgetMs: 2_500, minRounds: 6, maxRounds: 30 };

// Results are stored here so the engine cannot drop an operation whose result is never read.
const sink: unknown[] = [undefined];

/** Times each task and returns their measurements in the same order. */
export async function measure(tasks: readonly Task[], options: HarnessOptions = defaultHarnessOptions): Promise<Measurement[]> {
  const sizes: number[] = [];
  let roundNs = 0;
  for (const task of tasks) {
    const { ops, perOpNs } = await calibrate(task, options);
    sizes.push(ops);
    roundNs += ops * perOpNs;
  }
  const fitted = Math.floor((options.budgetMs * 1e6) / roundNs);
  const rounds = Math.min(options.maxRounds, Math.max(options.minRounds, fitted));
  const samples: number[][] = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, task] of tasks.entries()) {
      const ops = sizes[i] as number;
      (samples[i] as number[]).push((await batch(task, ops)) / ops);
    }
  }
  return tasks.map((task, i) => {
    const perOp = samples[i] as number[];
    const medianNs = median(perOp);
    const spread = median(perOp.map((value) => Math.abs(value - medianNs))) / medianNs;
    return { name: task.name, medianNs, spread, opsPerBatch: sizes[i] as number, samples: perOp };
  });
}

/**
 * `a`'s time over `b`'s, as the median of per-round ratios: batches of one round ran back to back, so a load
 * spike on a shared machine inflates both sides of a ratio instead of one side of a median.
 */
export function pairedRatio(a: Measurement, b: Measurement): number {
  return median(a.samples.map((value, i) => value / (b.samples[i] as number)));
}

/** `a`'s time minus `b`'s in nanoseconds, as the median of per-round differences (see `pairedRatio`). */
export function pairedDifference(a: Measurement, b: Measurement): number {
  return median(a.samples.map((value, i) => value - (b.samples[i] as number)));
}

/** Runs the task for the warm-up time; returns how many operations fill one batch and their estimated cost. */
async function calibrate(task: Task, options: HarnessOptions): Promise<{ ops: number; perOpNs: number }> {
  const warmupNs = options.warmupMs * 1e6;
  let ops = 1;
  let spentNs = 0;
  let done = 0;
  while (spentNs < warmupNs || done < 3) {
    spentNs += await batch(task, ops);
    done += ops;
    // Double the batch, but not past the warm-up time that is left.
    const perOp = spentNs / done;
    ops = Math.max(1, Math.min(ops * 2, Math.ceil((warmupNs - spentNs) / perOp)));
  }
  const perOpNs = spentNs / done;
  return { ops: Math.max(1, Math.round((options.batchMs * 1e6) / perOpNs)), perOpNs };
}

/** Runs `ops` operations and returns the elapsed nanoseconds. */
async function batch(task: Task, ops: number): Promise<number> {
  const { run } = task;
  const start = performance.now();
  if (task.async) for (let i = 0; i < ops; i++) sink[0] = await run();
  else for (let i = 0; i < ops; i++) sink[0] = run();
  return (performance.now() - start) * 1e6;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
