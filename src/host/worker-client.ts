import { type Remote, transfer, wrap } from 'comlink';
import type { WorkerApi, WorkerEngineOptions, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import { encodeRequest } from './encode-request.ts';
import { toValidatorErrorCode, ValidatorError } from './validator-error.ts';
import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';

/** One request waiting for its answer. */
interface Pending {
  readonly request: WorkerRequest;
  /** Position in the send order of the worker it went to (set when sent). */
  seq: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: ValidatorError) => void;
  /** Called when this request overran the budget, so the host can remember its schema as too slow. */
  readonly onTimeout?: () => void;
}

interface Live {
  readonly handle: WorkerHandle;
  readonly remote: Remote<WorkerApi>;
  readonly port: MessagePort;
  /** Requests sent to this worker and not yet answered, in send order. */
  readonly inFlight: Pending[];
  /** Sequence numbers: of the last request sent, and of the last one the worker reported finished. */
  sent: number;
  finished: number;
  lastActivity: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  dead: boolean;
  /** False until the worker has loaded and answered `init`; the budget clock starts after that. */
  ready: boolean;
}

export interface WorkerClientOptions {
  readonly spawn: SpawnWorker;
  readonly timeBudgetMs: number;
  /** Requests per message (DESIGN: calls issued together travel together). */
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

/**
 * Requests made in the same tick are sent as one batch (one message each way). The worker reports after each
 * request how many it has finished, so when nothing has finished for `timeBudgetMs` the host knows which request
 * is stuck: that one rejects with `TIMEOUT`, the worker is terminated, and everything else it held is sent again
 * to a fresh worker. A worker that dies on its own rejects what it held with `WORKER_CRASHED`.
 */
const startupMs = 30_000;

export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  const queue: Pending[] = [];
  let live: Live | undefined;
  let scheduled = false;
  let closed = false;

  const start = (): Live => {
    const handle = options.spawn();
    const remote = wrap<WorkerApi>(handle.endpoint);
    const { port, remote: workerPort } = handle.channel();
    const state: Live = {
      handle,
      remote,
      port,
      inFlight: [],
      sent: 0,
      finished: 0,
      lastActivity: options.now(),
      timer: undefined,
      dead: false,
      ready: false,
    };
    port.onmessage = (event: MessageEvent) => {
      state.finished = Math.max(state.finished, Number(event.data));
      state.lastActivity = options.now();
    };
    handle.onCrash((reason) => crashed(state, reason));
    // Loading a worker takes longer than a validation may; a separate, generous bound covers start-up.
    const startup = setTimeout(() => crashed(state, `it did not start within ${startupMs} ms`), startupMs);
    remote.init(transfer(workerPort, [workerPort]), options.engine).then(
      () => {
        clearTimeout(startup);
        if (state.dead) return;
        state.ready = true;
        flush();
      },
      (error: unknown) => {
        clearTimeout(startup);
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
    for (const pending of state.inFlight.splice(0)) {
      pending.reject(new ValidatorError('WORKER_CRASHED', `the validation worker crashed (${reason}); the next call starts a fresh one`));
    }
    if (queue.length > 0) schedule();
  };

  const retire = (state: Live): void => {
    state.dead = true;
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.port.close();
    state.handle.terminate();
    if (live === state) live = undefined;
  };

  const watch = (state: Live): void => {
    if (state.timer !== undefined || state.dead) return;
    const check = (): void => {
      state.timer = undefined;
      if (state.dead || state.inFlight.length === 0) return;
      const idle = options.now() - state.lastActivity;
      if (idle < options.timeBudgetMs) {
        state.timer = setTimeout(check, options.timeBudgetMs - idle);
        return;
      }
      timedOut(state);
    };
    state.timer = setTimeout(check, options.timeBudgetMs);
  };

  const timedOut = (state: Live): void => {
    const stuck = state.inFlight.find((pending) => pending.seq > state.finished);
    if (stuck === undefined) {
      // Everything finished; the answers are on their way. Nothing to blame.
      state.lastActivity = options.now();
      watch(state);
      return;
    }
    const rest = state.inFlight.filter((pending) => pending !== stuck);
    state.inFlight.length = 0;
    retire(state);
    stuck.onTimeout?.();
    stuck.reject(new ValidatorError('TIMEOUT', `validation ran past its ${options.timeBudgetMs} ms budget; the worker was restarted`));
    // Innocent requests (finished but unreported, or not started) go again, ahead of anything newer.
    queue.unshift(...rest);
    if (queue.length > 0) schedule();
  };

  const flush = (): void => {
    scheduled = false;
    if (closed || queue.length === 0) return;
    if (live === undefined) live = start();
    const state = live;
    if (!state.ready) return; // flushed again once the worker is up
    while (queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      if (state.inFlight.length === 0) state.lastActivity = options.now();
      const first = state.sent + 1;
      for (const pending of batch) pending.seq = ++state.sent;
      state.inFlight.push(...batch);
      state.handle.setBusy(true);
      watch(state);
      state.remote
        .run(
          batch.map((pending) => encodeRequest(pending.request)),
          first,
        )
        .then(
          (responses) => settle(state, batch, responses),
          (error: unknown) => {
            // The call itself failed (cloning, a dead channel): answer this batch, keep the worker.
            if (state.dead) return;
            for (const pending of batch) {
              remove(state, pending);
              pending.reject(new ValidatorError('INTERNAL', error instanceof Error ? error.message : String(error)));
            }
            idle(state);
          },
        );
    }
  };

  const settle = (state: Live, batch: Pending[], responses: WorkerResponse[]): void => {
    if (state.dead) return;
    state.lastActivity = options.now();
    batch.forEach((pending, i) => {
      remove(state, pending);
      const response = responses[i];
      if (response === undefined) pending.reject(new ValidatorError('INTERNAL', 'the worker gave no answer'));
      else if (response.ok) pending.resolve(response.value);
      else pending.reject(new ValidatorError(toValidatorErrorCode(response.code), response.message));
    });
    idle(state);
  };

  const remove = (state: Live, pending: Pending): void => {
    const at = state.inFlight.indexOf(pending);
    if (at >= 0) state.inFlight.splice(at, 1);
    state.finished = Math.max(state.finished, pending.seq);
  };

  const idle = (state: Live): void => {
    if (state.inFlight.length > 0) return;
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = undefined;
    state.handle.setBusy(false);
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
      const pending = [...queue.splice(0), ...(live?.inFlight.splice(0) ?? [])];
      if (live !== undefined) retire(live);
      for (const p of pending) p.reject(new ValidatorError('CLOSED', 'the validator was closed before this call finished'));
    },
  };
}
