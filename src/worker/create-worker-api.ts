import { createEngine, type Engine, type EngineOptions } from '../engine/index.ts';
import type { LanePort, WorkerApi, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import { batchSize, getRequest, type LaneBatch, packReply, progressViews } from '../wire/index.ts';
import { runRequest } from './run-request.ts';

/**
 * Delivers every message arriving on the lane to `onMessage`, which answers the batch before it returns (the
 * engine is synchronous), so the worker is idle again after each. `postedAt` reads when the host posted its last
 * batch (µs since the epoch), where shared memory carries it. The entry supplies the platform's way: Node's
 * `port.on('message')` hands over the data directly; the browser default sets `onmessage`.
 */
export type ListenLane = (lane: LanePort, onMessage: (data: unknown) => void, postedAt: () => number | undefined) => void;

const listenWeb: ListenLane = (lane, onMessage) => {
  (lane as unknown as MessagePort).onmessage = (event: MessageEvent) => onMessage(event.data);
};

/**
 * The engine as the worker exposes it: batches of requests, answered as data, each finished request's sequence
 * number reported so the host can tell which request overran its time budget — stored in shared memory when the
 * host provided some, otherwise posted on the lane (but for a batch's last request, which its reply reports).
 * The engine is synchronous, so a batch runs to its end before the next message is read: the numbers map onto the
 * host's send order without a queue.
 */
export function createWorkerApi(options: EngineOptions = {}, listen: ListenLane = listenWeb): WorkerApi {
  let engine: Engine = createEngine(options);
  let lane: LanePort | undefined;
  let shared: Int32Array | undefined;

  const attempt = (request: WorkerRequest): WorkerResponse => {
    try {
      return { ok: true, value: runRequest(engine, request) };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return {
        ok: false,
        code: typeof code === 'string' ? code : 'INTERNAL',
        message: error instanceof Error ? error.message : String(error),
      };
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

  /**
   * Runs a batch from the lane, its requests numbered from `firstSeq`. No closure per batch: code loaded through
   * tsx pays a `__name()` for each closure it creates.
   */
  const runBatch = (firstSeq: number, batch: LaneBatch): WorkerResponse[] => {
    const responses: WorkerResponse[] = [];
    const last = batchSize(batch) - 1;
    for (let i = 0; i <= last; i++) {
      started(firstSeq + i);
      responses.push(attempt(getRequest(batch, i)));
      finished(firstSeq + i, i === last);
    }
    return responses;
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
          const batch = data as LaneBatch;
          const firstSeq = batch[0] as number;
          reply(firstSeq, runBatch(firstSeq, batch), batch);
        },
        postedAt,
      );
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
