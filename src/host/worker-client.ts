import { type Remote, transfer, wrap } from 'comlink';
import type { WorkerApi, WorkerEngineOptions, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import {
  compilesNothing,
  expandAnswer,
  type LaneReply,
  progressMemoryBytes,
  progressViews,
  putRequest,
  startBatch,
  unpackReply,
} from '../wire/index.ts';
import { encodeRequest } from './encode-request.ts';
import { toValidatorErrorCode, ValidatorError } from './validator-error.ts';
import type { LaneEnd, SpawnWorker, WorkerHandle } from './worker-handle.ts';
import { finishedUpTo, type Pending, type Progress, recordSent, takeAnswered, takeInFlight } from './worker-progress.ts';
import {
  type Budgets,
  checkPeriodMs,
  createTicker,
  defaultCompileBudgetMs,
  overdue,
  startupMs,
  type Ticker,
  timeoutMessage,
} from './worker-watchdog.ts';

/** One started worker: its controls, and what the host knows of its progress. */
interface Live extends Progress {
  readonly handle: WorkerHandle;
  /** Kept for the worker's lifetime: Comlink releases the worker's side when its proxy is collected. */
  readonly remote: Remote<WorkerApi>;
  readonly lane: LaneEnd;
  /** Where the host notes when it posted its last batch (µs since the epoch), beside the progress slots. */
  readonly postedAt: BigInt64Array | undefined;
  readonly watchdog: Ticker;
  /** The start-up bound, until `init` answers (cleared when the worker is retired, so it cannot hold the process). */
  startup: ReturnType<typeof setTimeout> | undefined;
  /** Whether the worker keeps the process alive (set when work is sent, cleared by the watchdog once idle). */
  busy: boolean;
  dead: boolean;
  /** False until the worker has loaded and answered `init`; the budget clock starts after that. */
  ready: boolean;
}

export interface WorkerClientOptions {
  readonly spawn: SpawnWorker;
  readonly timeBudgetMs: number;
  /** Budget of one compile request (`compile`, or `compileTools` with one tool: the host sends one per tool). */
  readonly compileBudgetMs?: number;
  /** Requests per message (docs/isolation.md: calls issued together travel together). */
  readonly maxBatch: number;
  readonly now: () => number;
  /** Engine options for the worker (its policy). */
  readonly engine: WorkerEngineOptions;
}

/** Sends requests to a worker in batches, enforces the time budget, and replaces the worker when it dies. */
export interface WorkerClient {
  send(request: WorkerRequest, onTimeout?: () => void, onPosted?: () => void): Promise<unknown>;
  close(): void;
}

/**
 * Requests made in the same tick are sent as one batch (one message each way) on the worker's data lane, a
 * `MessagePort` handed over once through Comlink's `init`. The worker reports each finished request's sequence
 * number (worker-progress.ts), so when a request has run past its budget the host knows which one is stuck
 * (worker-watchdog.ts): it rejects with `TIMEOUT` (its `onTimeout` is told first, so the caller can decide whom
 * to blame), the worker is terminated, and everything else it held is sent again to a fresh worker. A worker
 * that dies on its own rejects what it held with `WORKER_CRASHED`.
 */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  let queue: Pending[] = [];
  let live: Live | undefined;
  let scheduled = false;
  let closed = false;
  const { now } = options;
  const budgets: Budgets = {
    timeBudgetMs: options.timeBudgetMs,
    compileBudgetMs: options.compileBudgetMs ?? defaultCompileBudgetMs(options.timeBudgetMs),
  };
  const checkMs = checkPeriodMs(options.timeBudgetMs);

  const start = (): Live => {
    const handle = options.spawn();
    const remote = wrap<WorkerApi>(handle.endpoint);
    // Messages arrive asynchronously, so `state` is set by the time the first one does.
    const { port: lane, remote: workerLane } = handle.lane((data) => received(state, data));
    const memory = handle.sharedMemory && typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(progressMemoryBytes) : undefined;
    const views = memory === undefined ? undefined : progressViews(memory);
    const state: Live = {
      handle,
      remote,
      lane,
      shared: views?.slots,
      postedAt: views?.postedAt,
      batches: [],
      inFlight: 0,
      sent: 0,
      finished: 0,
      started: 0,
      lastActivity: now(),
      watchdog: createTicker(checkMs, () => check(state)),
      startup: undefined,
      busy: false,
      dead: false,
      ready: false,
    };
    handle.onCrash((reason) => crashed(state, reason));
    state.startup = setTimeout(() => crashed(state, `it did not start within ${startupMs} ms`), startupMs);
    const progress = memory === undefined ? {} : { progress: memory };
    // The lane crosses once, through Comlink; from here on batches travel on it without Comlink's per-call wrapping.
    remote.init(transfer(workerLane, [workerLane]), { engine: options.engine, ...progress }).then(
      () => {
        clearTimeout(state.startup);
        if (state.dead) return;
        state.ready = true;
        flush();
      },
      (error: unknown) => {
        clearTimeout(state.startup);
        crashed(state, error instanceof Error ? error.message : String(error));
      },
    );
    return state;
  };

  const crashed = (state: Live, reason: string): void => {
    if (state.dead) return;
    const starting = !state.ready;
    retire(state);
    if (starting) {
      // Nothing was sent to it; what waits fails, so a worker that cannot start never loops.
      for (const pending of queue.splice(0)) {
        pending.reject(new ValidatorError('WORKER_CRASHED', `the validation worker could not start (${reason})`));
      }
      return;
    }
    for (const pending of takeInFlight(state)) {
      pending.reject(new ValidatorError('WORKER_CRASHED', `the validation worker crashed (${reason}); the next call starts a fresh one`));
    }
    if (queue.length > 0) schedule();
  };

  const retire = (state: Live): void => {
    state.dead = true;
    clearTimeout(state.startup);
    state.watchdog.stop();
    state.lane.close();
    state.handle.terminate();
    if (live === state) live = undefined;
  };

  /** The watchdog: every `checkMs` while the worker holds requests. */
  const check = (state: Live): void => {
    if (state.dead) return;
    if (state.inFlight === 0) {
      // Idle: let the process exit (a host that forgets `close()` still ends) until work is sent again.
      state.busy = false;
      state.handle.setBusy(false);
      return;
    }
    const stuck = overdue(state, budgets, now);
    if (stuck === undefined) state.watchdog.arm();
    else timedOut(state, stuck);
  };

  const timedOut = (state: Live, blamed: Pending): void => {
    const rest = takeInFlight(state).filter((pending) => pending !== blamed);
    retire(state);
    blamed.onTimeout?.();
    blamed.reject(new ValidatorError('TIMEOUT', timeoutMessage(blamed.request, budgets)));
    // Innocent requests (finished but unanswered, or not started) go again, ahead of anything newer.
    queue = rest.concat(queue);
    if (queue.length > 0) schedule();
  };

  /** The lane's messages: a batch's answers, or (without shared memory) a finished request's number. */
  const received = (state: Live, data: unknown): void => {
    if (state.dead) return;
    if (typeof data === 'number') {
      finishedUpTo(state, data, now);
      return;
    }
    const reply = data as LaneReply;
    const firstSeq = reply[0] as number;
    const batch = takeAnswered(state, firstSeq, now);
    if (batch === undefined) {
      crashed(state, `it answered batch ${firstSeq} out of order`);
      return;
    }
    if (reply.length - 2 !== batch.length) {
      for (const pending of batch) settle(pending, undefined);
      return;
    }
    unpackReply(reply, (i, response) => settle(batch[i] as Pending, response));
  };

  const flush = (): void => {
    scheduled = false;
    if (closed || queue.length === 0) return;
    if (live === undefined) live = start();
    const state = live;
    if (!state.ready) return; // flushed again once the worker is up
    let quick = true;
    while (queue.length > 0) {
      let batch: Pending[];
      if (queue.length <= options.maxBatch) {
        batch = queue;
        queue = [];
      } else batch = queue.splice(0, options.maxBatch);
      if (quick) quick = batch.every((pending) => compilesNothing(pending.request));
      post(state, batch);
    }
    // Quick requests are answered within microseconds: taking the reply off the lane beats being woken by it.
    if (quick && state.inFlight > 0) state.lane.awaitReplies?.(() => state.dead || state.inFlight === 0);
  };

  /** One message on the lane; a request that cannot be encoded or cloned fails alone, the others go. */
  const post = (state: Live, batch: Pending[]): void => {
    try {
      const message = startBatch(state.sent + 1);
      for (const pending of batch) putRequest(message, encodeRequest(pending.request));
      if (state.postedAt !== undefined)
        Atomics.store(state.postedAt, 0, BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)));
      state.lane.postMessage(message);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const sendable = batch.filter((pending) => {
        const problem = unsendable(pending.request);
        if (problem === undefined) return true;
        pending.reject(new ValidatorError('INTERNAL', problem));
        return false;
      });
      if (sendable.length === batch.length) for (const pending of batch) pending.reject(new ValidatorError('INTERNAL', message));
      else if (sendable.length > 0) post(state, sendable);
      return;
    }
    recordSent(state, batch, now);
    for (const pending of batch) pending.onPosted?.();
    if (!state.busy) {
      state.busy = true;
      state.handle.setBusy(true);
    }
    state.watchdog.arm();
  };

  const settle = (pending: Pending, response: WorkerResponse | undefined): void => {
    // (undefined: the worker answered a batch with the wrong number of responses)
    if (response === undefined) pending.reject(new ValidatorError('INTERNAL', 'the worker gave no answer'));
    else if (response.ok) pending.resolve(expandAnswer(pending.request, response.value));
    else pending.reject(new ValidatorError(toValidatorErrorCode(response.code), response.message));
  };

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(flush);
  };

  return {
    send(request, onTimeout, onPosted) {
      if (closed) return Promise.reject(new ValidatorError('CLOSED', 'the validator is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject, onTimeout, onPosted, seq: 0 });
        schedule();
      });
    },
    close() {
      if (closed) return;
      closed = true;
      const pending = queue.splice(0);
      if (live !== undefined) {
        pending.push(...takeInFlight(live));
        retire(live);
      }
      for (const p of pending) p.reject(new ValidatorError('CLOSED', 'the validator was closed before this call finished'));
    },
  };
}

/** Whether a request only validates against a compiled schema (no compile), so its answer comes back at once. */
/** Why a request cannot cross to the worker, or undefined if it can. */
function unsendable(request: WorkerRequest): string | undefined {
  try {
    structuredClone(encodeRequest(request));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
