import type { MessagePort } from 'node:worker_threads';
import type { ListenLane } from './create-worker-api.ts';

/** Takes the next queued message off a port without waiting (Node's `receiveMessageOnPort`). */
export type ReceiveNow = (port: MessagePort) => { readonly message: unknown } | undefined;

/** A pause longer than this between two polls means the thread lost its core to another: the machine is busy. */
const preemptedMs = 0.2;
/** How long polling stays off after a preempted spin: doubled on each one in a row, up to `maxBackoffMs`. */
const firstBackoffMs = 50;
const maxBackoffMs = 2_000;

/**
 * Listens on a Node lane with `port.on('message')` and, after each message that leaves the worker idle, keeps
 * taking queued messages for `spinMs` more (the window restarts with each one). A host that awaits each answer
 * sends its next request within microseconds, so the request is served without a sleeping thread to wake. A
 * message that leaves a batch waiting on a promise ends the polling at once: that batch needs the event loop.
 * Polling only pays on idle cores: when a poll finds the thread was preempted, the cores are contended, so polling
 * stops and stays off for a while (exponential back-off). Moderate load it does not see: there a round trip costs
 * more with polling than without (docs/decisions/013-idle-spin.md has the figures).
 */
export function listenWithSpin(spinMs: number, receive: ReceiveNow, now: () => number = () => performance.now()): ListenLane {
  let pausedUntil = 0;
  let backoffMs = firstBackoffMs;
  const pause = (at: number): void => {
    pausedUntil = at + backoffMs;
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
  };
  return (lane, onMessage) => {
    const port = lane as unknown as MessagePort;
    port.on('message', (data: unknown) => {
      if (!onMessage(data) || spinMs <= 0) return;
      let last = now();
      if (last < pausedUntil) return;
      let deadline = last + spinMs;
      for (;;) {
        const next = receive(port);
        const at = now();
        if (at - last > preemptedMs) pause(at);
        last = at;
        if (next !== undefined) {
          if (!onMessage(next.message)) return;
          last = now();
          deadline = last + spinMs;
        } else if (at > deadline || at < pausedUntil) {
          if (at > deadline && at >= pausedUntil) backoffMs = firstBackoffMs;
          return;
        }
      }
    });
  };
}

/** The spin window a host asked for (`workerData.idleSpinMicros`), in milliseconds; none when absent or invalid. */
export function idleSpinMs(data: unknown): number {
  const micros = (data as { idleSpinMicros?: unknown } | null | undefined)?.idleSpinMicros;
  return typeof micros === 'number' && Number.isFinite(micros) && micros > 0 ? Math.min(micros, 1000) / 1000 : 0;
}
