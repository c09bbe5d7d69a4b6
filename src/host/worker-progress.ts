import type { WorkerRequest } from '../protocol/validator-service.ts';
import type { ValidatorError } from './validator-error.ts';

/** One request waiting for its answer. */
export interface Pending {
  readonly request: WorkerRequest;
  /** Position in the send order of the worker it went to (set when sent). */
  seq: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: ValidatorError) => void;
  /** Called when this request overran its budget, before it rejects, so the host can decide whom to blame. */
  readonly onTimeout?: () => void;
  /** Called right after the message holding this request was posted: what it holds was cloned just then. */
  readonly onPosted?: () => void;
}

/**
 * How far one worker got through the requests it was sent, as the host knows it. The worker runs them strictly
 * in send order and reports sequence numbers: each finished (and, with shared memory, each started) request's in
 * `shared`, or each finished one's as a lane message, and a batch's last one by its reply.
 */
export interface Progress {
  /** Where the worker stores its last finished and started request's number; undefined: it posts them on the lane. */
  readonly shared: Int32Array | undefined;
  /** Batches sent and not yet answered, oldest first: the worker answers them in this order. */
  readonly batches: Pending[][];
  /** Requests in `batches`. */
  inFlight: number;
  /** Sequence numbers: of the last request sent, of the last one known finished, and (shared memory) started. */
  sent: number;
  finished: number;
  started: number;
  /** When the worker was last seen making progress (or was handed work while idle). */
  lastActivity: number;
}

/** Numbers the batch's requests from the next sequence number on and records it as sent. */
export function recordSent(progress: Progress, batch: Pending[], now: () => number): void {
  const first = progress.sent + 1;
  for (let i = 0; i < batch.length; i++) (batch[i] as Pending).seq = first + i;
  progress.sent = first + batch.length - 1;
  if (progress.inFlight === 0) progress.lastActivity = now();
  progress.inFlight += batch.length;
  progress.batches.push(batch);
}

/** Reads the progress the worker stored in shared memory (numbers travel modulo 2^32). */
export function observe(progress: Progress, now: () => number): void {
  if (progress.shared === undefined) return;
  const finished = progress.sent - (((progress.sent | 0) - Atomics.load(progress.shared, 0)) >>> 0);
  const started = progress.sent - (((progress.sent | 0) - Atomics.load(progress.shared, 1)) >>> 0);
  if (finished <= progress.finished && started <= progress.started) return;
  if (finished > progress.finished) progress.finished = finished;
  if (started > progress.started) progress.started = started;
  // It finished or started one some time since the last look; counting from now never blames a request early.
  progress.lastActivity = now();
}

/** A lane message without shared memory: the number of a request the worker finished. */
export function finishedUpTo(progress: Progress, seq: number, now: () => number): void {
  if (seq > progress.finished) progress.finished = seq;
  progress.lastActivity = now();
}

/**
 * The batch a reply numbered `firstSeq` answers, taken off the worker's account (all its requests finished), or
 * undefined when it is not the oldest one sent: the worker answered out of order.
 */
export function takeAnswered(progress: Progress, firstSeq: number, now: () => number): Pending[] | undefined {
  const batch = progress.batches[0];
  if (batch === undefined || batch[0]?.seq !== firstSeq) return undefined;
  progress.batches.shift();
  progress.inFlight -= batch.length;
  finishedUpTo(progress, (batch[batch.length - 1] as Pending).seq, now);
  return batch;
}

/** Everything the worker held, oldest first; it holds nothing afterwards. */
export function takeInFlight(progress: Progress): Pending[] {
  const all = progress.batches.flat();
  progress.batches.length = 0;
  progress.inFlight = 0;
  return all;
}

/** The first request the worker is not known to have finished: the one it is on, if it is stuck. */
export function firstUnfinished(progress: Progress): Pending | undefined {
  for (const batch of progress.batches) {
    const stuck = batch.find((pending) => pending.seq > progress.finished);
    if (stuck !== undefined) return stuck;
  }
  return undefined;
}

/**
 * Whether the worker is known not to have started this request yet: it is still receiving (deserializing) the
 * batch, which is charged to no request in it. Known only with shared memory; without, it counts as started.
 */
export function notStarted(progress: Progress, pending: Pending): boolean {
  return progress.shared !== undefined && pending.seq > progress.started;
}
