import { MessageChannel, Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';

const bootstrap = new URL('../worker/node-bootstrap.mjs', import.meta.url);

/** Spawns the engine in a Node `worker_threads` worker (through tsx, so the TypeScript sources run as they are). */
export interface SpawnNodeWorkerOptions {
  /** Heap limits of the worker (default 256 MB old generation): a hostile instance cannot exhaust the host. */
  readonly resourceLimits?: { readonly maxOldGenerationSizeMb?: number };
  /** Sees each started worker (monitoring, tests). */
  readonly onSpawn?: (worker: Worker) => void;
  /**
   * Report progress through a `SharedArrayBuffer` (default `true`: worker_threads always share memory); `false`
   * makes the worker post it on the data lane instead, as in a browser that is not cross-origin isolated.
   */
  readonly sharedMemory?: boolean;
}

export function spawnNodeWorker(options: SpawnNodeWorkerOptions = {}): SpawnWorker {
  return (): WorkerHandle => {
    const worker = new Worker(bootstrap, { resourceLimits: options.resourceLimits ?? { maxOldGenerationSizeMb: 256 } });
    options.onSpawn?.(worker);
    worker.unref();
    let crashed = false;
    let terminated = false;
    const listeners: ((reason: string) => void)[] = [];
    const crash = (reason: string): void => {
      if (crashed || terminated) return;
      crashed = true;
      for (const listener of listeners) listener(reason);
    };
    worker.on('error', (error) => crash(`worker error: ${error.message}`));
    worker.on('exit', (code) => crash(`worker exited with code ${code}`));
    return {
      endpoint: nodeEndpoint(worker),
      lane: (onMessage) => {
        const { port1, port2 } = new MessageChannel();
        // `.on('message')` hands over the data without a MessageEvent; it refs the port, so unref after it.
        port1.on('message', onMessage);
        port1.unref();
        return { port: port1, remote: port2 as unknown as MessagePort };
      },
      sharedMemory: options.sharedMemory ?? true,
      terminate: () => {
        terminated = true;
        void worker.terminate();
      },
      onCrash: (listener) => listeners.push(listener),
      setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  };
}
