import type { EncodedField, WorkerOperation, WorkerRequest, WorkerResponse } from '../protocol/validator-service.ts';

/**
 * The data lane's messages (docs/decisions/006-worker-protocol.md). A structured clone pays for every object on
 * both sides of the boundary, so a batch is one flat array and a request takes four slots of it:
 *
 *     batch: [firstSeq, op, a, b, encoded, op, a, b, encoded, …]
 *     reply: [firstSeq, failed, answer, answer, …]
 *
 * `a` and `b` are the operation's payload fields (below), `encoded` a bit mask of those sent as lossless JSON text
 * (1: a, 2: b). A reply holds each request's value in order; `failed` is null, or the indices whose slot holds
 * `[code, message]` instead. Without shared memory the worker also posts plain numbers: finished requests.
 */
export type LaneBatch = unknown[];
export type LaneReply = unknown[];

/** Slots per request in a batch. */
export const requestSlots = 4;

/** Which payload field of each operation goes in slot `a` and which in `b`. */
const fieldsOf: Readonly<Record<WorkerOperation['op'], readonly [string?, string?]>> = {
  compileTools: ['tools'],
  compile: ['schema'],
  validateArguments: ['fingerprint', 'instance'],
  validateStructured: ['fingerprint', 'instance'],
  validateElicitation: ['schema', 'instance'],
  validate: ['schema', 'instance'],
  validateJson: ['schema', 'text'],
  stats: [],
};

// Arrays are built by appending: a structured clone writes a holey array (`new Array(n)`) as a sparse one, slower.

/** Starts a batch whose requests are numbered from `firstSeq`; `putRequest` appends them in order. */
export const startBatch = (firstSeq: number): LaneBatch => [firstSeq];

/** Appends a request to a batch. */
export function putRequest(batch: LaneBatch, request: WorkerRequest): void {
  const [a, b] = fieldsOf[request.op];
  const fields = request as unknown as Record<string, unknown>;
  let mask = 0;
  if (request.encoded !== undefined) for (const field of request.encoded) mask |= field === b ? 2 : 1;
  batch.push(request.op, a === undefined ? undefined : fields[a], b === undefined ? undefined : fields[b], mask);
}

/** Requests in a batch. */
export const batchSize = (batch: LaneBatch): number => (batch.length - 1) / requestSlots;

/** Reads the `index`th request of a batch back into its object form. */
export function getRequest(batch: LaneBatch, index: number): WorkerRequest {
  const at = 1 + index * requestSlots;
  const op = batch[at] as WorkerOperation['op'];
  const [a, b] = fieldsOf[op] ?? [];
  const request: Record<string, unknown> = { op };
  if (a !== undefined) request[a] = batch[at + 1];
  if (b !== undefined) request[b] = batch[at + 2];
  const mask = batch[at + 3] as number;
  if (mask !== 0) {
    const encoded: EncodedField[] = [];
    if (mask & 1 && a !== undefined) encoded.push(a as EncodedField);
    if (mask & 2 && b !== undefined) encoded.push(b as EncodedField);
    request.encoded = encoded;
  }
  return request as unknown as WorkerRequest;
}

/**
 * A valid outcome (`{ status: 'valid' }`, most answers) crosses as `true`: a structured clone costs about 20 times
 * more for the object than for the boolean, on both sides. Only for the operations that always answer with an
 * object (an outcome, or `{ fingerprint, outcome }` for `validate` by fingerprint), so `true` is never ambiguous:
 * the host knows each request's operation and rebuilds the object (`expandAnswer`).
 */
function compactAnswer(batch: LaneBatch, index: number, value: unknown): unknown {
  const at = 1 + index * requestSlots;
  switch (batch[at] as WorkerOperation['op']) {
    case 'validateArguments':
    case 'validateStructured':
    case 'validateElicitation':
      return (value as { status?: unknown }).status === 'valid' ? true : value;
    case 'validate':
      // By fingerprint (a string schema, as sent): the fingerprint answered is the one the host sent.
      if (typeof batch[at + 1] !== 'string' || ((batch[at + 3] as number) & 1) !== 0) return value;
      return (value as { outcome: { status?: unknown } }).outcome.status === 'valid' ? true : value;
    default:
      return value;
  }
}

/** The answer a request got, with a compacted valid outcome rebuilt (see `compactAnswer`). */
export function expandAnswer(request: WorkerRequest, value: unknown): unknown {
  if (value !== true) return value;
  switch (request.op) {
    case 'validateArguments':
    case 'validateStructured':
    case 'validateElicitation':
      return { status: 'valid' };
    case 'validate':
      return { fingerprint: request.schema, outcome: { status: 'valid' } };
    default:
      return value;
  }
}

/**
 * Packs a batch's responses into a reply; given the batch they answer, valid outcomes travel compacted (the
 * receiver then needs `expandAnswer`).
 */
export function packReply(firstSeq: number, responses: readonly WorkerResponse[], batch?: LaneBatch): LaneReply {
  const reply: LaneReply = [firstSeq, null];
  let failed: number[] | null = null;
  for (let i = 0; i < responses.length; i++) {
    const response = responses[i] as WorkerResponse;
    if (response.ok) reply.push(batch === undefined ? response.value : compactAnswer(batch, i, response.value));
    else {
      if (failed === null) failed = [];
      failed.push(i);
      reply.push([response.code, response.message]);
    }
  }
  reply[1] = failed;
  return reply;
}

/** Calls `each` with every response of a reply, in order. */
export function unpackReply(reply: LaneReply, each: (index: number, response: WorkerResponse) => void): void {
  const failed = reply[1] as number[] | null;
  let nextFailed = failed === null ? -1 : (failed[0] as number);
  let f = 0;
  for (let i = 0; i < reply.length - 2; i++) {
    const slot = reply[2 + i];
    if (i === nextFailed) {
      const [code, message] = slot as [string, string];
      each(i, { ok: false, code, message });
      nextFailed = (failed as number[])[++f] ?? -1;
    } else each(i, { ok: true, value: slot });
  }
}
