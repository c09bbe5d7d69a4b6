/** One read of a stream: a chunk, its end, a failure, or no data within the time allowed. */
export type TimedRead =
  | { readonly kind: 'chunk'; readonly value: Uint8Array }
  | { readonly kind: 'done' }
  | { readonly kind: 'error' }
  | { readonly kind: 'timeout' };

/**
 * Reads one chunk, waiting at most `timeoutMs` (none when undefined). On a timeout the stream is cancelled, so
 * an upstream that stops sending holds no connection past it.
 */
export async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, timeoutMs?: number): Promise<TimedRead> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = reader.read().then(
    (r): TimedRead => (r.done ? { kind: 'done' } : { kind: 'chunk', value: r.value }),
    (): TimedRead => ({ kind: 'error' }),
  );
  if (timeoutMs === undefined) return read;
  const timeout = new Promise<TimedRead>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
  });
  try {
    const first = await Promise.race([read, timeout]);
    // Not awaited: a source whose cancel never settles must not hold the answer either.
    if (first.kind === 'timeout') reader.cancel().catch(() => undefined);
    return first;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
