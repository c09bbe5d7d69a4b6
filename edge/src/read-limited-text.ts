/** A request body read as text, or why it was not. */
export type LimitedText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too_large' | 'unreadable'; readonly message: string };

/**
 * Reads a body as UTF-8 text, refusing it once it passes `maxBytes`: first by its declared Content-Length,
 * then by the bytes actually streamed (a chunked body, or a length that lies), so an oversized body is never
 * buffered whole, let alone parsed.
 */
export async function readLimitedText(request: Request, maxBytes: number): Promise<LimitedText> {
  const tooLarge = { ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` } as const;
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) return tooLarge;
  if (request.body === null) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stop the upload instead of draining it; a failing cancel changes nothing for the answer.
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable', message: 'the body could not be read' };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'unreadable', message: 'the body is not UTF-8 text' };
  }
}
