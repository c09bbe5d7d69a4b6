import { type Remote, transfer, wrap } from 'comlink';
import type { WorkerApi, WorkerEngineOptions, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import { expandAnswer, type LaneReply, progressMemoryBytes, progressViews, putRequest, startBatch, unpackReply } from '../wire/index.ts';
import { encodeRequest } from './encode-request.ts';
import { toValidatorErrorCode, ValidatorError } from './validator-error.ts';
import type { LaneEnd, SpawnWorker, WorkerHandle } from './worker-handle.ts';

/** One request waiting for its answer. */
interface Pending {
  readonly request: WorkerRequest;
  /** Position in the send order of the worker it went to (set when sent). */
  seq: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: ValidatorError) => void;
  /** Called when this request overran its budget, before it rejects, so the host can decide whom to blame. */
  readonly onTimeout?: () => void;
}

interface Live {
  readonly handle: WorkerHandle;
  /** Kept for the worker's lifetime: Comlink releases the worker's side when its proxy is collected. */
  readonly remote: Remote<WorkerApi>;
  readonly lane: LaneEnd;
  /** Where the worker stores the number of its last finished request; undefined: it posts progress on the lane. */
  readonly shared: Int32Array | undefined;
  /** Where the host notes when it posted its last batch (µs since the epoch), beside the progress slots. */
  readonly postedAt: BigInt64Array | undefined;
  /** Batches sent and not yet answered, oldest first: the worker answers them in this order. */
  readonly batches: Pending[][];
  /** Requests in `batches`. */
  inFlight: number;
  /** Sequence numbers: of the last request sent, of the last one known finished, and (shared memory) started. */
  sent: number;
  finished: number;
  started: number;
  /** When the worker was last seen making progress (or was handed work while idle). */
  lastActivity: number;
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
  send(request: WorkerRequest, onTimeout?: () => void): Promise<unknown>;
  close(): void;
}

/** Loading a worker takes longer than a validation may; a separate, generous bound covers start-up. */
const startupMs = 30_000;
/**
 * The default budget of one compile request: eight validation budgets, and at least two seconds. A legitimate
 * 230 KB tool compiles in 50–170 ms (cold worker); compiling is bounded by the static policy anyway.
 */
export const defaultCompileBudgetMs = (timeBudgetMs: number): number => Math.max(8 * timeBudgetMs, 2000);

/** The watchdog looks at the worker this often while it holds requests (at most; a quarter of small budgets). */
const maxCheckMs = 50;

/**
 * Requests made in the same tick are sent as one batch (one message each way) on the worker's data lane, a
 * `MessagePort` handed over once through Comlink's `init`. The worker reports each finished request's sequence
 * number (in shared memory where it can, with each started one's too, else on the lane), so when a request has
 * run past its budget the host knows which one is stuck: it rejects with `TIMEOUT` (its `onTimeout` is told
 * first, so the caller can decide whom to blame), the worker is terminated, and everything else it held is sent
 * again to a fresh worker. A worker that dies on its own rejects what it held with `WORKER_CRASHED`.
 */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  let queue: Pending[] = [];
  let live: Live | undefined;
  let scheduled = false;
  let closed = false;
  const checkMs = Math.max(1, Math.min(maxCheckMs, options.timeBudgetMs / 4));
  const compileBudgetMs = options.compileBudgetMs ?? defaultCompileBudgetMs(options.timeBudgetMs);

  const start = (): Live => {
    const handle = options.spawn();
    const remote = wrap<WorkerApi>(handle.endpoint);
    // Messages arrive asynchronously, so `state` is set by the time the first one does.
    const { port: lane, remote: workerLane } = handle.lane((data) => received(state, data));
    const memory = handle.sharedMemory && typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(progressMemoryBytes) : undefined;
    const views = memory === undefined ? undefined : progressViews(memory);
    const shared = views?.slots;
    const postedAt = views?.postedAt;
    const state: Live = {
      handle,
      remote,
      lane,
      shared,
      postedAt,
      batches: [],
      inFlight: 0,
      sent: 0,
      finished: 0,
      started: 0,
      lastActivity: options.now(),
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

  /** Everything the worker held, oldest first; it holds nothing afterwards. */
  const takeInFlight = (state: Live): Pending[] => {
    const all = state.batches.flat();
    state.batches.length = 0;
    state.inFlight = 0;
    return all;
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

  /** Reads the progress the worker stored in shared memory (numbers travel modulo 2^32). */
  const observe = (state: Live): void => {
    if (state.shared === undefined) return;
    const finished = state.sent - (((state.sent | 0) - Atomics.load(state.shared, 0)) >>> 0);
    const started = state.sent - (((state.sent | 0) - Atomics.load(state.shared, 1)) >>> 0);
    if (finished <= state.finished && started <= state.started) return;
    if (finished > state.finished) state.finished = finished;
    if (started > state.started) state.started = started;
    // It finished or started one some time since the last look; counting from now never blames a request early.
    state.lastActivity = options.now();
  };

  /**
   * Whether the worker is known not to have started this request yet: it is still receiving (deserializing) the
   * batch, which is charged to no request in it. Known only with shared memory; without, it counts as started.
   */
  const notStarted = (state: Live, pending: Pending): boolean => state.shared !== undefined && pending.seq > state.started;

  /** The watchdog: every `checkMs` while the worker holds requests. */
  const check = (state: Live): void => {
    if (state.dead) return;
    if (state.inFlight === 0) {
      // Idle: let the process exit (a host that forgets `close()` still ends) until work is sent again.
      state.busy = false;
      state.handle.setBusy(false);
      return;
    }
    observe(state);
    const idle = options.now() - state.lastActivity;
    if (idle < options.timeBudgetMs) state.watchdog.arm();
    else {
      // A request that compiles gets a larger budget than one that only validates (see `budgetOf`).
      const stuck = firstUnfinished(state);
      // Receiving a batch is bounded by its size, which the host has just serialized; a generous bound all the same.
      const bound = stuck === undefined ? 0 : notStarted(state, stuck) ? startupMs : budgetOf(stuck.request);
      if (idle < bound) state.watchdog.arm();
      else timedOut(state);
    }
  };

  const firstUnfinished = (state: Live): Pending | undefined => {
    for (const batch of state.batches) {
      const stuck = batch.find((pending) => pending.seq > state.finished);
      if (stuck !== undefined) return stuck;
    }
    return undefined;
  };

  /**
   * Compiling may take longer than validating (a legitimate large schema in a cold worker), so a request that
   * compiles has the compile budget, plus the validation budget when it validates too (a schema sent as an object).
   */
  const budgetOf = (request: WorkerRequest): number => {
    switch (request.op) {
      case 'compile':
      case 'compileTools':
        return compileBudgetMs;
      case 'validateElicitation':
        return compileBudgetMs + options.timeBudgetMs;
      case 'validate':
      case 'validateJson':
        return typeof request.schema === 'string' ? options.timeBudgetMs : compileBudgetMs + options.timeBudgetMs;
      default:
        return options.timeBudgetMs;
    }
  };

  const timedOut = (state: Live): void => {
    const stuck = firstUnfinished(state);
    if (stuck === undefined) {
      // Everything finished; the answers are on their way. Nothing to blame.
      state.lastActivity = options.now();
      state.watchdog.arm();
      return;
    }
    const blamed = stuck;
    const rest = takeInFlight(state).filter((pending) => pending !== blamed);
    retire(state);
    blamed.onTimeout?.();
    const op = blamed.request.op;
    const what = op === 'compile' || op === 'compileTools' ? 'compiling' : 'validation';
    blamed.reject(new ValidatorError('TIMEOUT', `${what} ran past its ${budgetOf(blamed.request)} ms budget; the worker was restarted`));
    // Innocent requests (finished but unanswered, or not started) go again, ahead of anything newer.
    queue = rest.concat(queue);
    if (queue.length > 0) schedule();
  };

  /** The lane's messages: a batch's answers, or (without shared memory) a finished request's number. */
  const received = (state: Live, data: unknown): void => {
    if (state.dead) return;
    if (typeof data === 'number') {
      if (data > state.finished) state.finished = data;
      state.lastActivity = options.now();
      return;
    }
    const reply = data as LaneReply;
    const firstSeq = reply[0] as number;
    const batch = state.batches[0];
    if (batch === undefined || batch[0]?.seq !== firstSeq) {
      crashed(state, `it answered batch ${firstSeq} out of order`);
      return;
    }
    state.batches.shift();
    state.inFlight -= batch.length;
    const last = (batch[batch.length - 1] as Pending).seq;
    if (last > state.finished) state.finished = last;
    state.lastActivity = options.now();
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
    while (queue.length > 0) {
      let batch: Pending[];
      if (queue.length <= options.maxBatch) {
        batch = queue;
        queue = [];
      } else batch = queue.splice(0, options.maxBatch);
      post(state, batch);
    }
  };

  /** One message on the lane; a request that cannot be encoded or cloned fails alone, the others go. */
  const post = (state: Live, batch: Pending[]): void => {
    const first = state.sent + 1;
    try {
      const message = startBatch(first);
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
    for (let i = 0; i < batch.length; i++) (batch[i] as Pending).seq = first + i;
    state.sent = first + batch.length - 1;
    if (state.inFlight === 0) state.lastActivity = options.now();
    state.inFlight += batch.length;
    state.batches.push(batch);
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
    send(request, onTimeout) {
      if (closed) return Promise.reject(new ValidatorError('CLOSED', 'the validator is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject, onTimeout, seq: 0 });
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

/** A timer that is re-armed rather than recreated: `refresh()` where the platform has it (Node), else `setTimeout`. */
interface Ticker {
  /** Fires `tick` once, `periodMs` from now, unless already armed. */
  arm(): void;
  stop(): void;
}

function createTicker(periodMs: number, tick: () => void): Ticker {
  type Timer = ReturnType<typeof setTimeout> & { refresh?: () => unknown; unref?: () => unknown };
  let timer: Timer | undefined;
  let armed = false;
  let stopped = false;
  const fire = (): void => {
    armed = false;
    tick();
  };
  return {
    arm() {
      if (armed || stopped) return;
      armed = true;
      if (timer !== undefined && typeof timer.refresh === 'function') {
        timer.refresh();
        return;
      }
      timer = setTimeout(fire, periodMs) as Timer;
      // The worker, not the timer, keeps a Node process alive while requests are pending.
      timer.unref?.();
    },
    stop() {
      stopped = true;
      armed = false;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/** Why a request cannot cross to the worker, or undefined if it can. */
function unsendable(request: WorkerRequest): string | undefined {
  try {
    structuredClone(encodeRequest(request));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
