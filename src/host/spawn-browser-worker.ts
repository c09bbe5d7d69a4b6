import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';

/**
 * Spawns the engine in a browser module Worker. `url` points at the bundled `src/worker/browser-entry.ts`
 * (a bundler resolves `new URL('./worker.js', import.meta.url)` for you).
 */
export function spawnBrowserWorker(url: URL | string): SpawnWorker {
  return (): WorkerHandle => {
    const worker = new Worker(url, { type: 'module' });
    let done = false;
    const listeners: ((reason: string) => void)[] = [];
    worker.addEventListener('error', (event) => {
      if (done) return;
      done = true;
      for (const listener of listeners) listener(`worker error: ${event.message ?? 'unknown'}`);
    });
    return {
      endpoint: worker,
      channel: () => {
        const { port1, port2 } = new MessageChannel();
        return { port: port1, remote: port2 };
      },
      terminate: () => {
        done = true;
        worker.terminate();
      },
      onCrash: (listener) => listeners.push(listener),
      setBusy: () => undefined,
    };
  };
}
