import { readWithin } from './read-within.ts';

/** A request body read as text, or why it was not. */
export type LimitedText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable'; readonly message: string };

/** A body read as bytes, or why it was not (`timeout`: one read waited longer than `timeoutMs`). */
export type LimitedBytes =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable' | 'timeout'; readonly message: string };

/**
 * Reads a stream to its end, counting bytes as they arrive: once the count passes `maxBytes` the stream is
 * cancelled (an upload or an upstream response stops there) and nothing more is buffered. With `timeoutMs`, a
 * read that waits longer than that cancels the stream too.
 */
export async function readLimitedBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs?: number,
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
      // Stop the transfer instead of draining it; a failing cancel changes nothing for the answer.
      reader.cancel().catch(() => undefined);
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

/** `bytes` as strict UTF-8, or undefined. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads a body as UTF-8 text, refusing it once it passes `maxBytes`: first by its declared Content-Length,
 * then by the bytes actually streamed (a chunked body, or a length that lies), so an oversized body is never
 * buffered whole, let alone parsed.
 */
export async function readLimitedText(request: Request, maxBytes: number): Promise<LimitedText> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    request.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` };
  }
  const read = await readLimitedBytes(request.body, maxBytes);
  if (!read.ok) return { ok: false, reason: read.reason === 'too_large' ? 'too_large' : 'unreadable', message: read.message };
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { ok: false, reason: 'unreadable', message: 'the body is not UTF-8 text' } : { ok: true, text };
}
