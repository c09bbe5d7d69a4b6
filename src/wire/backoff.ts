/**
 * A switch that turns polling off for a while and, while it keeps being turned off, for longer each time: the
 * pause doubles from `firstMs` up to `maxMs`, and `reset` (a poll that paid) starts it again from `firstMs`. Both
 * ends of the lane poll (the host for replies, the worker for requests) and back off the same way.
 */
export interface Backoff {
  /** True while a pause that began before `at` (milliseconds, monotonic) lasts. */
  readonly paused: (at: number) => boolean;
  /** Pauses from `at` for the current length, and doubles the next one. */
  readonly pause: (at: number) => void;
  /** The next pause is `firstMs` again. */
  readonly reset: () => void;
}

export function createBackoff(firstMs: number, maxMs: number): Backoff {
  let pausedUntil = 0;
  let lengthMs = firstMs;
  return {
    paused: (at) => at < pausedUntil,
    pause: (at) => {
      pausedUntil = at + lengthMs;
      lengthMs = Math.min(lengthMs * 2, maxMs);
    },
    reset: () => {
      lengthMs = firstMs;
    },
  };
}
