import { createBackoff } from '../wire/index.ts';

/** Takes one queued message off the host's end of the lane and delivers it; false when none was queued. */
export type TakeQueued = () => boolean;

/** Milliseconds, monotonic (`performance.now()`). */
export type PollClock = () => number;

/** A pause longer than this between two empty polls means the thread lost its core to another: the machine is busy. */
export const preemptedMs = 0.2;
/** How long polling stays off after a poll that did not pay: doubled on each one in a row, up to `maxBackoffMs`. */
export const firstBackoffMs = 1;
export const maxBackoffMs = 2_000;

/** Waits for `done` by polling the lane; see `createReplyPoll`. */
export type AwaitReplies = (done: () => boolean) => void;

/**
 * Waits for `done` by taking the lane's messages off it for at most `windowMs`, instead of returning to the event
 * loop and being woken by them (docs/decisions/020-host-reply-poll.md). Polling pays only when the worker answers
 * within the window; a window that runs out (the work took longer, or the worker was asleep) or an empty poll that
 * finds the thread preempted (the cores are busy, so polling takes one from the worker) turns polling off for a
 * back-off that doubles while it recurs, until a poll pays again.
 */
export function createReplyPoll(windowMs: number, take: TakeQueued, clock: PollClock = () => performance.now()): AwaitReplies {
  const backoff = createBackoff(firstBackoffMs, maxBackoffMs);
  return (done) => {
    if (windowMs <= 0) return;
    let last = clock();
    if (backoff.paused(last)) return;
    const deadline = last + windowMs;
    for (;;) {
      const took = take();
      if (done()) {
        backoff.reset();
        return;
      }
      const at = clock();
      // A message taken was also handled (its answers settled): time spent there is no sign of preemption. The
      // deadline holds either way: without shared memory a long batch sends a progress message per request.
      if (at > deadline || (!took && at - last > preemptedMs)) {
        backoff.pause(at);
        return;
      }
      last = at;
    }
  };
}
