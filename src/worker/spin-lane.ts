import type { MessagePort } from 'node:worker_threads';
import { createBackoff } from '../wire/index.ts';
import type { ListenLane } from './create-worker-api.ts';

/** Takes the next queued message off a port without waiting (Node's `receiveMessageOnPort`). */
export type ReceiveNow = (port: MessagePort) => { readonly message: unknown } | undefined;

export interface SpinClock {
  /** Milliseconds, monotonic (`performance.now()`). */
  readonly now: () => number;
  /** Microseconds since the epoch, comparable across threads (`performance.timeOrigin + performance.now()`). */
  readonly epochMicros: () => number;
}

const realClock: SpinClock = {
  now: () => performance.now(),
  epochMicros: () => (performance.timeOrigin + performance.now()) * 1000,
};

/**
 * A message that took at least this long from the host's `postMessage` to this thread's event loop found the
 * thread asleep on an idle core (32–60 µs on the 2-core VM); on busy cores delivery takes 5–15 µs and polling
 * would only take a core from the host.
 */
export const slowWakeMicros = 25;
/** Polling serves at most this many messages in a row, then lets one come through the event loop to re-measure. */
export const probeEvery = 64;
/** A pause longer than this between two polls means the thread lost its core to another: the machine is busy. */
const preemptedMs = 0.2;
/** How long polling stays off after a preempted spin: doubled on each one in a row, up to `maxBackoffMs`. */
const firstBackoffMs = 50;
const maxBackoffMs = 2_000;

/**
 * Listens on a Node lane with `port.on('message')` and, after each message (answered before `onMessage` returns,
 * so the worker is idle again), keeps taking queued messages for `spinMs` more (the window restarts with each
 * one). A host that awaits each answer sends its next request within microseconds, so the request is served
 * without a sleeping thread to wake. Polling only pays when waking up is slow: the host stamps each batch (shared
 * memory) and the worker polls only while the last message the event loop delivered took `slowWakeMicros` or
 * more; one message in `probeEvery` is left to the event loop to measure again. A poll that finds the thread
 * preempted turns polling off for a while.
 */
export function listenWithSpin(spinMs: number, receive: ReceiveNow, clock: SpinClock = realClock): ListenLane {
  const backoff = createBackoff(firstBackoffMs, maxBackoffMs);
  let wakeIsSlow = true;
  let served = 0;
  return (lane, onMessage, postedAt) => {
    const port = lane as unknown as MessagePort;
    port.on('message', (data: unknown) => {
      const posted = postedAt();
      if (posted !== undefined && posted > 0) wakeIsSlow = clock.epochMicros() - posted >= slowWakeMicros;
      onMessage(data);
      if (spinMs <= 0 || !wakeIsSlow) return;
      let last = clock.now();
      if (backoff.paused(last)) return;
      let deadline = last + spinMs;
      for (;;) {
        const next = receive(port);
        const at = clock.now();
        if (at - last > preemptedMs) backoff.pause(at);
        last = at;
        if (next !== undefined) {
          onMessage(next.message);
          if (++served % probeEvery === 0) return;
          last = clock.now();
          deadline = last + spinMs;
        } else if (at > deadline || backoff.paused(at)) {
          if (at > deadline && !backoff.paused(at)) backoff.reset();
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
