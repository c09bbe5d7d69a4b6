import { createEngine, type Engine, type EngineOptions } from '../engine/create-engine.ts';
import type { ProgressPort, WorkerApi, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';
import { runRequest } from './run-request.ts';

/**
 * The engine as the worker exposes it: batches of requests, answered as data, with each finished request's
 * sequence number posted so the host can tell which request overran its time budget.
 */
export function createWorkerApi(options: EngineOptions = {}): WorkerApi {
  let engine: Engine = createEngine(options);
  let progress: ProgressPort | undefined;
  // Batches run strictly one after another, so the progress count maps onto the host's send order.
  let tail: Promise<unknown> = Promise.resolve();
  const runBatch = async (batch: readonly WorkerRequest[], firstSeq: number): Promise<WorkerResponse[]> => {
    const responses: WorkerResponse[] = [];
    for (const request of batch) {
      try {
        responses.push({ ok: true, value: await runRequest(engine, request) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        responses.push({
          ok: false,
          code: typeof code === 'string' ? code : 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
        });
      }
      progress?.postMessage(firstSeq + responses.length - 1);
    }
    return responses;
  };
  return {
    init(port, engineOptions) {
      progress = port;
      if (engineOptions?.policy !== undefined) engine = createEngine({ ...options, policy: engineOptions.policy });
    },
    run(batch, firstSeq) {
      const result = tail.then(() => runBatch(batch, firstSeq));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
