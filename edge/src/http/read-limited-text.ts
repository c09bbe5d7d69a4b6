import { readWithin } from './read-within.ts';

/** A request body read as text, or why it was not. */
export type LimitedText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable'; readonly message: string };

/** A body read as bytes, or why it was not (`timeout`: one read waited longer than `timeoutMs`). */
export type LimitedBytes =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable' | 'timeout'; readonly message: string };

/** How much of a refused request body is read and dropped before the upload is cancelled after all. */
export interface DrainLimits {
  readonly maxBytes: number;
  readonly maxMs: number;
}

/**
 * The bounds for a refused client body (docs/edge.md, "Threat model"): 8 MiB or 1 s, whichever comes first. Enough
 * for a body a few times over any limit on a local link; a client that sends more, or trickles, is cut off.
 */
export const refusedBodyDrain: DrainLimits = { maxBytes: 8 * 1024 * 1024, maxMs: 1000 };

/** What became of a refused body: read to its end and dropped, or cancelled past a bound (or already gone). */
export type Drained = 'drained' | 'cancelled';

/**
 * Reads what is left of a stream and drops it, at most `limits.maxBytes` and `limits.maxMs`; past either it is
 * cancelled. A request body is drained rather than cancelled because a Worker that cancels an upload makes
 * `wrangler dev`'s proxy lose its connection: the next request through it got 503 "Your worker restarted
 * mid-request" (issue #17). Nothing read here is kept.
 */
export async function drainRest(reader: ReadableStreamDefaultReader<Uint8Array>, limits: DrainLimits = refusedBodyDrain): Promise<Drained> {
  const deadline = Date.now() + limits.maxMs;
  let size = 0;
  for (;;) {
    const left = deadline - Date.now();
    // readWithin cancels the stream itself when a read outlasts the time left.
    const read = left > 0 ? await readWithin(reader, left) : ({ kind: 'timeout' } as const);
    if (read.kind === 'done') return 'drained';
    if (read.kind === 'error') return 'cancelled';
    if (read.kind === 'chunk') size += read.value.byteLength;
    if (read.kind === 'timeout' || size > limits.maxBytes) {
      reader.cancel().catch(() => undefined);
      return 'cancelled';
    }
  }
}

/**
 * Drains a request body the Worker will not read (a refusal), within `limits`, before the refusal is answered; see
 * `drainRest`. Cancelled at once instead: a body of a declared length past `limits.maxBytes` (it would be cut off
 * anyway), and one whose client waits for `Expect: 100-continue` (it has sent nothing, and reading would only ask
 * for the upload the refusal spares it: curl then sends after its own 1 s wait, past the drain's time).
 */
export async function drainBody(request: Request, limits: DrainLimits = refusedBodyDrain): Promise<Drained> {
  const body = request.body;
  if (body === null) return 'drained';
  if (request.bodyUsed || body.locked) return 'cancelled';
  const declared = request.headers.get('content-length');
  const tooLong = declared !== null && /^\d+$/.test(declared) && Number(declared) > limits.maxBytes;
  if (tooLong || /^\s*100-continue\s*$/i.test(request.headers.get('expect') ?? '')) {
    body.cancel().catch(() => undefined);
    return 'cancelled';
  }
  return drainRest(body.getReader(), limits);
}

/**
 * Reads a stream to its end, counting bytes as they arrive: once the count passes `maxBytes` nothing more is
 * buffered, and the stream is cancelled (an upstream response stops there) or, with `drain`, read on and dropped
 * within those bounds (a client's upload, see `drainRest`). With `timeoutMs`, a read that waits longer than that
 * cancels the stream too.
 */
export async function readLimitedBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs?: number,
  drain?: DrainLimits,
): Promise<LimitedBytes> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await readWithin(reader, timeoutMs);
    if (read.kind === 'timeout') return { ok: false, reason: 'timeout', message: `no data for ${timeoutMs} ms` };
    if (read.kind === 'error') return { ok: false, reason: 'unreadable', message: 'the body could not be read to its end' };
    if (read.kind === 'done') break;
    size += read.value.byteLength;
    if (size > maxBytes) {
      chunks.length = 0;
      // A failing cancel changes nothing for the answer.
      if (drain === undefined) reader.cancel().catch(() => undefined);
      else await drainRest(reader, drain);
      return { ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` };
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** One decoder for every body: a non-streaming `decode` keeps no state between calls. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** `bytes` as strict UTF-8, or undefined. */
export function decodeUtf8(bytes: Uint8Array | ArrayBuffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads a body as UTF-8 text, refusing it once it passes `maxBytes`: first by its declared Content-Length,
 * then by the bytes actually streamed (a chunked body, or a length that lies), so an oversized body is never
 * buffered whole, let alone parsed. The rest of a refused body is drained within `drain` (default
 * `refusedBodyDrain`) before this returns, so the refusal leaves the connection usable.
 */
export async function readLimitedText(request: Request, maxBytes: number, drain: DrainLimits = refusedBodyDrain): Promise<LimitedText> {
  const declared = request.headers.get('content-length');
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined && length > maxBytes) {
    await drainBody(request, drain);
    return { ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` };
  }
  if (length !== undefined) return readDeclared(request, maxBytes);
  const read = await readLimitedBytes(request.body, maxBytes, undefined, drain);
  if (!read.ok) return { ok: false, reason: read.reason === 'too_large' ? 'too_large' : 'unreadable', message: read.message };
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { ok: false, reason: 'unreadable', message: 'the body is not UTF-8 text' } : { ok: true, text };
}

/**
 * A body of a declared length within `maxBytes`, read in one native call: workerd frames a request body by its
 * Content-Length, so it cannot deliver more than was declared. Read chunk by chunk instead, a 700 KB body cost
 * ~15 ms of isolate time in ~100 reads and copies (issue #17's load run); this is ~1 ms. Where a runtime lets the
 * body outgrow its header (a Request built in process), the length is still checked once it is read.
 */
async function readDeclared(request: Request, maxBytes: number): Promise<LimitedText> {
  let buffer: ArrayBuffer;
  try {
    buffer = await request.arrayBuffer();
  } catch {
    return { ok: false, reason: 'unreadable', message: 'the body could not be read to its end' };
  }
  if (buffer.byteLength > maxBytes) return { ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` };
  const text = decodeUtf8(buffer);
  return text === undefined ? { ok: false, reason: 'unreadable', message: 'the body is not UTF-8 text' } : { ok: true, text };
}
