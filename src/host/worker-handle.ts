import type { Endpoint } from 'comlink';

/** A started worker, whatever the platform: a Comlink endpoint plus the few controls the host needs. */
export interface WorkerHandle {
  readonly endpoint: Endpoint;
  /** Transfers a port to the worker's side of the channel for progress reports. */
  readonly channel: () => { port: MessagePort; remote: MessagePort };
  terminate(): void;
  /** Called once if the worker dies on its own (uncaught error, exit, out of memory). */
  onCrash(listener: (reason: string) => void): void;
  /** Whether the worker should keep a Node process alive (only while calls are pending). */
  setBusy(busy: boolean): void;
}

/** Starts a fresh worker running `src/worker`'s entry for the platform. */
export type SpawnWorker = () => WorkerHandle;
