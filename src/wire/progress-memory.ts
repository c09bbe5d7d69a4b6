/**
 * The memory a host shares with its worker for progress (`WorkerInit.progress`): two `Int32` slots the worker
 * `Atomics.store`s into (the last finished and the last started request's sequence number), then, at bytes 8–15,
 * a `BigInt64` where the host notes when it posted its last batch, in microseconds since the epoch
 * (`(performance.timeOrigin + performance.now()) * 1000`, which both threads read alike).
 */
export const progressMemoryBytes = 16;

export interface ProgressViews {
  /** [0] finished, [1] started (as many of the two as the memory holds). */
  readonly slots: Int32Array;
  /** The host's last post time; undefined in a memory too small for it. */
  readonly postedAt: BigInt64Array | undefined;
}

export function progressViews(memory: SharedArrayBuffer): ProgressViews {
  return {
    slots: new Int32Array(memory, 0, Math.min(2, memory.byteLength >> 2)),
    postedAt: memory.byteLength >= progressMemoryBytes ? new BigInt64Array(memory, 8, 1) : undefined,
  };
}
