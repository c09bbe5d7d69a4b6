import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';
import { browserWorkerErrorReason } from './worker-start-failure.ts';

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
    // Not a second `new URL('./worker.js', import.meta.url)`: bundlers would emit the script again as an asset.
    const script =
      url === undefined
        ? resolved('./worker.js', import.meta.url)
        : resolved(url, globalThis.document?.baseURI ?? globalThis.location?.href);
    let done = false;
    const listeners: ((reason: string) => void)[] = [];
    worker.addEventListener('error', (event: Event) => {
      if (done) return;
      done = true;
      const message = (event as Partial<ErrorEvent>).message;
      for (const listener of listeners) listener(browserWorkerErrorReason(script, message));
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

/** The script's absolute URL as `new Worker` resolves it (a page: against the document's base URL): where the browser looked. */
function resolved(url: URL | string, base: string | undefined): string {
  try {
    return new URL(url, base).href;
  } catch {
    return String(url);
  }
}
