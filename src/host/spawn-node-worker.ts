import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { nodeEndpoint } from './node-endpoint.ts';
import { createReplyPoll } from './reply-poll.ts';
import type { SpawnWorker, WorkerHandle } from './worker-handle.ts';
import { nodeWorkerErrorReason } from './worker-start-failure.ts';

/** Set by the CLI bundle (esbuild `define`): its worker script, relative to the bundle. */
declare const __SCHEMAVAL_NODE_WORKER__: string | undefined;

/**
 * The worker script next to this module: compiled `dist/src/worker/node-entry.js` beside the compiled host; from the
 * TypeScript sources (tests under `node --import tsx`), a bootstrap that registers tsx in the worker first, since
 * Node 20 does not pass tsx's hooks on to worker threads.
 */
function defaultNodeWorkerEntry(): URL {
  if (typeof __SCHEMAVAL_NODE_WORKER__ === 'string') return new URL(__SCHEMAVAL_NODE_WORKER__, import.meta.url);
  return import.meta.url.endsWith('.ts')
    ? new URL('../worker/node-bootstrap.mjs', import.meta.url)
    : new URL('../worker/node-entry.js', import.meta.url);
}

/** How `spawnNodeWorker` starts the engine in a Node `worker_threads` worker. */
export interface SpawnNodeWorkerOptions {
  /**
   * The worker script (default `defaultNodeWorkerEntry()`). Set it when a bundler moved this module away from
   * `dist/src/worker/node-entry.js`, e.g. `require.resolve('schemaval/package.json')`'s folder + that path.
   */
  readonly entry?: URL | string;
  /** Heap limits of the worker (default 256 MB old generation): a hostile instance cannot exhaust the host. */
  readonly resourceLimits?: { readonly maxOldGenerationSizeMb?: number };
  /** Sees each started worker (monitoring, tests). */
  readonly onSpawn?: (worker: Worker) => void;
  /**
   * Report progress through a `SharedArrayBuffer` (default `true`: worker_threads always share memory); `false`
   * makes the worker post it on the data lane instead, as in a browser that is not cross-origin isolated.
   */
  readonly sharedMemory?: boolean;
  /**
   * After answering, the worker polls its lane this many microseconds (default 50, at most 1,000) before it goes
   * back to sleep, so a host that awaits each call has its next request served without waking the thread; only
   * while waking it up is slow (measured with shared memory), for at most this much CPU after each message. `0`
   * turns it off (docs/decisions/013-idle-spin.md).
   */
  readonly idleSpinMicros?: number;
  /**
   * After posting quick requests (validations by fingerprint), the host takes the replies off its end of the lane
   * for up to this many microseconds (default 50, at most 1,000) instead of sleeping until one wakes it; off for a
   * while after a window the worker did not answer in, or a poll that found the host's thread preempted. `0` turns
   * it off (docs/decisions/020-host-reply-poll.md).
   */
  readonly replyPollMicros?: number;
}

/** The worker's default spin window after each answer, in microseconds. */
export const defaultIdleSpinMicros = 50;

/** The host's default window for taking replies off the lane after posting quick requests, in microseconds. */
export const defaultReplyPollMicros = 50;

/** Spawns the engine in a Node `worker_threads` worker running compiled JavaScript (tsx only from the sources). */
export function spawnNodeWorker(options: SpawnNodeWorkerOptions = {}): SpawnWorker {
  const entry = options.entry ?? defaultNodeWorkerEntry();
  // How Node names the entry when it cannot find it: a path (a string entry is one already).
  const script = typeof entry === 'string' ? entry : entry.protocol === 'file:' ? fileURLToPath(entry) : entry.href;
  const pollMicros = options.replyPollMicros ?? defaultReplyPollMicros;
  const pollMs = Number.isFinite(pollMicros) && pollMicros > 0 ? Math.min(pollMicros, 1000) / 1000 : 0;
  return (): WorkerHandle => {
    const worker = new Worker(entry, {
      resourceLimits: options.resourceLimits ?? { maxOldGenerationSizeMb: 256 },
      workerData: { idleSpinMicros: options.idleSpinMicros ?? defaultIdleSpinMicros },
    });
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
    worker.on('error', (error) => crash(nodeWorkerErrorReason(script, error)));
    worker.on('exit', (code) => crash(`worker exited with code ${code}`));
    return {
      endpoint: nodeEndpoint(worker),
      lane: (onMessage) => {
        const { port1, port2 } = new MessageChannel();
        // `.on('message')` hands over the data without a MessageEvent; it refs the port, so unref after it.
        port1.on('message', onMessage);
        port1.unref();
        const take = (): boolean => {
          const queued = receiveMessageOnPort(port1);
          if (queued === undefined) return false;
          onMessage(queued.message);
          return true;
        };
        const port = {
          postMessage: (message: unknown) => port1.postMessage(message),
          close: () => port1.close(),
          ...(pollMs > 0 ? { awaitReplies: createReplyPoll(pollMs, take) } : {}),
        };
        return { port, remote: port2 as unknown as MessagePort };
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
