import type { Endpoint } from 'comlink';

/** The host's end of the data lane. */
export interface LaneEnd {
  postMessage(message: unknown): void;
  close(): void;
  /**
   * Where the platform can take a message off the lane without waiting (Node's `receiveMessageOnPort`): takes the
   * replies as they arrive, each passed to the lane's `onMessage`, until `done` or a short window is over
   * (reply-poll.ts). The host calls it after posting quick requests, instead of sleeping until the reply wakes it.
   */
  awaitReplies?(done: () => boolean): void;
}

/** A started worker, whatever the platform: a Comlink endpoint plus the few controls the host needs. */
export interface WorkerHandle {
  readonly endpoint: Endpoint;
  /**
   * Opens the data lane: `port` is the host's end, listened to in the platform's cheapest way (Node:
   * `.on('message')`) with every message's data passed to `onMessage`; `remote` is transferred to the worker.
   */
  readonly lane: (onMessage: (data: unknown) => void) => { port: LaneEnd; remote: MessagePort };
  /**
   * Whether a `SharedArrayBuffer` can be shared with this worker, so progress travels through memory instead of
   * messages (Node worker_threads: yes; browsers: only when `crossOriginIsolated`).
   */
  readonly sharedMemory: boolean;
  terminate(): void;
  /** Called once if the worker dies on its own (uncaught error, exit, out of memory). */
  onCrash(listener: (reason: string) => void): void;
  /** Whether the worker should keep a Node process alive (only while calls are pending). */
  setBusy(busy: boolean): void;
}

/** Starts a fresh worker running `src/worker`'s entry for the platform. */
export type SpawnWorker = () => WorkerHandle;
