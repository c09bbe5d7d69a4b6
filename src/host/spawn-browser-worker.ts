import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';

export interface SpawnBrowserWorkerOptions {
  /**
   * Report progress through a `SharedArrayBuffer`. Default: when the page is `crossOriginIsolated` (the only case
   * a browser lets a worker share memory); otherwise the worker posts progress on the data lane.
   */
  readonly sharedMemory?: boolean;
}

/**
 * Spawns the engine in a browser module Worker. `url` points at the built worker script (`schemaval/worker`);
 * without it, the worker is the `worker.js` next to this module, written as the pattern Vite and webpack 5 follow
 * (they emit the file and rewrite the URL). Bundlers that do not (esbuild) need `url`.
 */
export function spawnBrowserWorker(url?: URL | string, options: SpawnBrowserWorkerOptions = {}): SpawnWorker {
  const shareable = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
  return (): WorkerHandle => {
    const worker =
      url === undefined ? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }) : new Worker(url, { type: 'module' });
    let done = false;
    const listeners: ((reason: string) => void)[] = [];
    worker.addEventListener('error', (event) => {
      if (done) return;
      done = true;
      for (const listener of listeners) listener(`worker error: ${event.message ?? 'unknown'}`);
    });
    return {
      endpoint: worker,
      lane: (onMessage) => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = (event) => onMessage(event.data);
        return { port: port1, remote: port2 };
      },
      sharedMemory: options.sharedMemory ?? shareable,
      terminate: () => {
        done = true;
        worker.terminate();
      },
      onCrash: (listener) => listeners.push(listener),
      setBusy: () => undefined,
    };
  };
}
