import { createEngine, type Engine, type EngineOptions } from '../engine/core/index.ts';
import { batchSize, getRequest, type LaneBatch, packReply } from '../protocol/lane.ts';
import { progressViews } from '../protocol/progress-memory.ts';
import type { LanePort, WorkerApi, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import { runRequest } from './run-request.ts';

/**
 * Delivers every message arriving on the lane to `onMessage`, which answers whether the worker is idle after it
 * (no batch waits on an asynchronous answer). `postedAt` reads when the host posted its last batch (µs since the
 * epoch), where shared memory carries it. The entry supplies the platform's way: Node's `port.on('message')` hands
 * over the data directly; the browser default sets `onmessage`.
 */
export type ListenLane = (lane: LanePort, onMessage: (data: unknown) => boolean, postedAt: () => number | undefined) => void;

const listenWeb: ListenLane = (lane, onMessage) => {
  (lane as unknown as MessagePort).onmessage = (event: MessageEvent) => onMessage(event.data);
};

/**
 * A batch to run: from the lane (answered on it) or from a Comlink `run` call (answered through `resolve`). Plain
 * data, no closures per batch: code loaded through tsx pays a `__name()` for each closure it creates.
 */
type Job =
  | { readonly firstSeq: number; readonly lane: LaneBatch; readonly requests?: undefined; readonly resolve?: undefined }
  | {
      readonly firstSeq: number;
      readonly lane?: undefined;
      readonly requests: readonly WorkerRequest[];
      readonly resolve: (responses: WorkerResponse[]) => void;
    };

const sizeOf = (job: Job): number => (job.lane === undefined ? job.requests.length : batchSize(job.lane));
const requestOf = (job: Job, index: number): WorkerRequest =>
  job.lane === undefined ? (job.requests[index] as WorkerRequest) : getRequest(job.lane, index);

/**
 * The engine as the worker exposes it: batches of requests, answered as data, each finished request's sequence
 * number reported so the host can tell which request overran its time budget — stored in shared memory when the
 * host provided some, otherwise posted on the lane (but for a batch's last request, which its reply reports).
 * Batches run strictly one after another, so the numbers map onto the host's send order; requests the engine
 * answers synchronously run without an `await` each.
 */
export function createWorkerApi(options: EngineOptions = {}, listen: ListenLane = listenWeb): WorkerApi {
  let engine: Engine = createEngine(options);
  let lane: LanePort | undefined;
  let shared: Int32Array | undefined;

  const failure = (error: unknown): WorkerResponse => {
    const code = (error as { code?: unknown } | null)?.code;
    return {
      ok: false,
      code: typeof code === 'string' ? code : 'INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    };
  };

  /** A response, or a promise of one for the requests the engine answers asynchronously (never rejects). */
  const attempt = (request: WorkerRequest): WorkerResponse | Promise<WorkerResponse> => {
    try {
      const value = runRequest(engine, request);
      if (value instanceof Promise) return value.then((settled): WorkerResponse => ({ ok: true, value: settled }), failure);
      return { ok: true, value };
    } catch (error) {
      return failure(error);
    }
  };

  const finished = (seq: number, last: boolean): void => {
    if (shared !== undefined) Atomics.store(shared, 0, seq | 0);
    else if (!last) lane?.postMessage(seq);
  };

  /**
   * With shared memory, also which request has started: the host's clock for a request runs from its start, so
   * receiving a batch (a big one takes a while to deserialize) is charged to no request in it.
   */
  const started = (seq: number): void => {
    if (shared !== undefined && shared.length > 1) Atomics.store(shared, 1, seq | 0);
  };

  /** Runs a batch synchronously as far as it can; the rest (from the first asynchronous answer on) as a promise. */
  const runBatch = (job: Job): WorkerResponse[] | Promise<WorkerResponse[]> => {
    const responses: WorkerResponse[] = [];
    const last = sizeOf(job) - 1;
    for (let i = 0; i <= last; i++) {
      started(job.firstSeq + i);
      const response = attempt(requestOf(job, i));
      if (response instanceof Promise) return finishBatch(job, responses, response);
      responses.push(response);
      finished(job.firstSeq + i, i === last);
    }
    return responses;
  };

  const finishBatch = async (job: Job, responses: WorkerResponse[], pending: Promise<WorkerResponse>): Promise<WorkerResponse[]> => {
    const last = sizeOf(job) - 1;
    responses.push(await pending);
    finished(job.firstSeq + responses.length - 1, responses.length - 1 === last);
    for (let i = responses.length; i <= last; i++) {
      started(job.firstSeq + i);
      const response = attempt(requestOf(job, i));
      responses.push(response instanceof Promise ? await response : response);
      finished(job.firstSeq + i, i === last);
    }
    return responses;
  };

  // Batches wait here while one runs asynchronously (lane messages and Comlink `run` calls alike).
  const waiting: Job[] = [];
  let running = false;
  const submit = (job: Job): void => {
    waiting.push(job);
    if (running) return;
    running = true;
    drain();
  };
  const drain = (): void => {
    for (let job = waiting.shift(); job !== undefined; job = waiting.shift()) {
      const result = runBatch(job);
      if (result instanceof Promise) {
        const settled = job;
        void result.then((responses) => {
          done(settled, responses);
          drain();
        });
        return;
      }
      done(job, result);
    }
    running = false;
  };

  const done = (job: Job, responses: WorkerResponse[]): void => {
    if (job.resolve !== undefined) job.resolve(responses);
    else reply(job.firstSeq, responses, job.lane);
  };

  const reply = (firstSeq: number, responses: WorkerResponse[], batch: LaneBatch): void => {
    const port = lane as LanePort;
    try {
      port.postMessage(packReply(firstSeq, responses, batch));
    } catch (error) {
      // An answer a structured clone cannot carry fails alone; the batch's others still arrive.
      const message = `the answer could not be sent: ${error instanceof Error ? error.message : String(error)}`;
      const unsent: WorkerResponse = { ok: false, code: 'INTERNAL', message };
      port.postMessage(
        packReply(
          firstSeq,
          responses.map((response) => (cloneable(response) ? response : unsent)),
          batch,
        ),
      );
    }
  };

  return {
    init(port, init) {
      lane = port;
      const views = init.progress === undefined ? undefined : progressViews(init.progress);
      shared = views?.slots;
      const stamp = views?.postedAt;
      const postedAt = (): number | undefined => (stamp === undefined ? undefined : Number(Atomics.load(stamp, 0)));
      if (init.engine.policy !== undefined) engine = createEngine({ ...options, policy: init.engine.policy });
      listen(
        port,
        (data) => {
          submit({ firstSeq: (data as LaneBatch)[0] as number, lane: data as LaneBatch });
          return !running;
        },
        postedAt,
      );
    },
    run(requests, firstSeq) {
      return new Promise((resolve) => submit({ firstSeq, requests, resolve }));
    },
  };
}

function cloneable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}
