/**
 * Rewrites the `data:` payload of each Server-Sent Event in a stream, keeping every other field and the event
 * boundaries. `rewrite` returns the new payload, or undefined to drop the event entirely.
 */
export function transformSse(
  body: ReadableStream<Uint8Array>,
  rewrite: (data: string) => Promise<string | undefined>,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  const flushEvents = async (controller: TransformStreamDefaultController<Uint8Array>, final: boolean): Promise<void> => {
    // Events end with a blank line (\n\n, \r\n\r\n or \r\r).
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
      if (match === null) break;
      const raw = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      const out = await rewriteEvent(raw, rewrite);
      if (out !== undefined) controller.enqueue(encoder.encode(`${out}\n\n`));
    }
    if (final && buffer.trim() !== '') {
      const out = await rewriteEvent(buffer, rewrite);
      buffer = '';
      if (out !== undefined) controller.enqueue(encoder.encode(`${out}\n\n`));
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        await flushEvents(controller, false);
      },
      async flush(controller) {
        buffer += decoder.decode();
        await flushEvents(controller, true);
      },
    }),
  );
}

async function rewriteEvent(raw: string, rewrite: (data: string) => Promise<string | undefined>): Promise<string | undefined> {
  const lines = raw.split(/\r\n|\n|\r/);
  const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  if (data.length === 0) return raw; // comments, retry, id-only events pass as they are
  const rewritten = await rewrite(data.join('\n'));
  if (rewritten === undefined) return undefined;
  const others = lines.filter((line) => !line.startsWith('data:'));
  return [...others, ...rewritten.split('\n').map((line) => `data: ${line}`)].join('\n');
}
