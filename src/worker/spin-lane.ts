import type { MessagePort } from 'node:worker_threads';
import type { ListenLane } from './create-worker-api.ts';

/** Takes the next queued message off a port without waiting (Node's `receiveMessageOnPort`). */
export type ReceiveNow = (port: MessagePort) => { readonly message: unknown } | undefined;

/**
 * Listens on a Node lane with `port.on('message')` and, after each message that leaves the worker idle, keeps
 * taking queued messages for `spinMs` more (the window restarts with each one). A host that awaits each answer
 * sends its next request within microseconds, so the request is served without a sleeping thread to wake. A
 * message that leaves a batch waiting on a promise ends the polling at once: that batch needs the event loop.
 */
export function listenWithSpin(spinMs: number, receive: ReceiveNow, now: () => number = () => performance.now()): ListenLane {
  return (lane, onMessage) => {
    const port = lane as unknown as MessagePort;
    port.on('message', (data: unknown) => {
      if (!onMessage(data) || spinMs <= 0) return;
      let deadline = now() + spinMs;
      for (;;) {
        const next = receive(port);
        if (next !== undefined) {
          if (!onMessage(next.message)) return;
          deadline = now() + spinMs;
        } else if (now() > deadline) return;
      }
    });
  };
}

/** The spin window a host asked for (`workerData.idleSpinMicros`), in milliseconds; none when absent or invalid. */
export function idleSpinMs(data: unknown): number {
  const micros = (data as { idleSpinMicros?: unknown } | null | undefined)?.idleSpinMicros;
  return typeof micros === 'number' && Number.isFinite(micros) && micros > 0 ? Math.min(micros, 1000) / 1000 : 0;
}
