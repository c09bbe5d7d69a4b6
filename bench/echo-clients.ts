// Section 4's reference points: the bare postMessage echo worker (the floor any worker round trip pays) and the
// same echo behind Comlink, each as a client whose calls resolve with the worker's reply.
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { type Remote, wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';

/** A worker that answers every call with its argument. */
export interface EchoClient {
  echo(value: unknown): Promise<unknown>;
  /** The worker thread's event-loop utilisation (how busy it is), since `since` if given. */
  utilization(since?: EventLoopUtilization): EventLoopUtilization;
  close(): Promise<void>;
}

/**
 * `worker.postMessage(value)` and the next reply, nothing more: replies come back in send order (one port, one
 * thread), so a FIFO of resolvers pairs them without an id in the message.
 */
export async function startBareEcho(): Promise<EchoClient> {
  const worker = new Worker(new URL('./echo-worker.mjs', import.meta.url));
  let waiting: ((value: unknown) => void)[] = [];
  let head = 0;
  worker.on('message', (message: unknown) => {
    const resolve = waiting[head++] as (value: unknown) => void;
    if (head === waiting.length) {
      waiting = [];
      head = 0;
    }
    resolve(message);
  });
  const echo = (value: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      worker.postMessage(value);
    });
  return started(worker, echo);
}

/** `remote.echo(value)` through Comlink's node adapter: an id per call, wrapped arguments and return value. */
export async function startComlinkEcho(): Promise<EchoClient> {
  const worker = new Worker(new URL('./comlink-echo-worker.mjs', import.meta.url));
  const remote: Remote<{ echo(value: unknown): unknown }> = wrap(nodeEndpoint(worker));
  return started(worker, (value) => remote.echo(value));
}

/** Resolves once the worker has answered a first call (it is loaded); rejects if it fails to start. */
async function started(worker: Worker, echo: (value: unknown) => Promise<unknown>): Promise<EchoClient> {
  let onError: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    worker.once('error', onError);
  });
  try {
    await Promise.race([echo('ready'), failed]);
  } finally {
    worker.off('error', onError);
  }
  return {
    echo,
    utilization: (since) => worker.performance.eventLoopUtilization(since),
    close: async () => {
      await worker.terminate();
    },
  };
}
