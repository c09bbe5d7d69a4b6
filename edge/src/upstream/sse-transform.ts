/** A field the gateway keeps from an SSE event besides `data` (a comment keeps no text: it is a keep-alive). */
export type SseField = readonly [name: 'id' | 'event' | 'retry' | 'comment', value: string];

/** One complete Server-Sent Event: its `data` lines joined by `\n` (undefined without any), and its other fields. */
export interface SseEvent {
  readonly data: string | undefined;
  readonly fields: readonly SseField[];
}

/** What one chunk completed, or `overflow` when the event being read passed the cap (the parser is then spent). */
export type SsePush =
  | { readonly events: readonly SseEvent[]; readonly overflow: false }
  | { readonly events: readonly SseEvent[]; readonly overflow: true };

export interface SseParser {
  /** Feeds the next bytes of the stream. */
  push(chunk: Uint8Array): SsePush;
  /** Ends the stream: `truncated` when it stopped inside an event (that event is dropped, as the SSE spec says). */
  end(): { readonly truncated: boolean };
  /** Bytes examined so far: every byte once, however the stream is split (the parser is linear). */
  readonly scannedBytes: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A push parser for `text/event-stream` (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream)
 * that looks at each byte once: line ends are found in each new chunk only, a line cut across chunks is kept as
 * byte pieces and decoded once complete (CR and LF never occur inside a UTF-8 sequence), and an event that grows
 * past `maxEventBytes` stops the parser before more of it is buffered.
 */
export function createSseParser(options: { readonly maxEventBytes: number }): SseParser {
  const decoder = new TextDecoder();
  let pieces: Uint8Array[] = [];
  let eventBytes = 0;
  let skipLf = false;
  let started = false;
  let data: string[] | undefined;
  let fields: SseField[] = [];
  let scanned = 0;

  const onLine = (line: string, out: SseEvent[]): void => {
    if (line === '') {
      if (started) out.push({ data: data?.join('\n'), fields });
      started = false;
      data = undefined;
      fields = [];
      eventBytes = 0;
      return;
    }
    started = true;
    if (line.startsWith(':')) {
      fields.push(['comment', '']);
      return;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') {
      data ??= [];
      data.push(value);
    } else if (name === 'id' || name === 'event' || name === 'retry') {
      fields.push([name, value]);
    }
    // Other field names are ignored, as the SSE spec says.
  };

  const takeLine = (chunk: Uint8Array, start: number, end: number): string => {
    if (pieces.length === 0) return decoder.decode(chunk.subarray(start, end));
    pieces.push(chunk.slice(start, end));
    const size = pieces.reduce((n, p) => n + p.byteLength, 0);
    const whole = new Uint8Array(size);
    let offset = 0;
    for (const piece of pieces) {
      whole.set(piece, offset);
      offset += piece.byteLength;
    }
    pieces = [];
    return decoder.decode(whole);
  };

  return {
    get scannedBytes() {
      return scanned;
    },
    push(chunk) {
      const out: SseEvent[] = [];
      let start = 0;
      if (skipLf && chunk.length > 0) {
        if (chunk[0] === LF) start = 1;
        skipLf = false;
      }
      scanned += chunk.length;
      // Next CR and LF at or after `start`, each searched for again only once passed.
      let nextLf = chunk.indexOf(LF, start);
      let nextCr = chunk.indexOf(CR, start);
      while (start < chunk.length) {
        if (nextLf >= 0 && nextLf < start) nextLf = chunk.indexOf(LF, start);
        if (nextCr >= 0 && nextCr < start) nextCr = chunk.indexOf(CR, start);
        const end = nextLf < 0 ? nextCr : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
        if (end < 0) {
          eventBytes += chunk.length - start;
          if (eventBytes > options.maxEventBytes) return { events: out, overflow: true };
          pieces.push(chunk.slice(start));
          break;
        }
        eventBytes += end - start + 1;
        if (eventBytes > options.maxEventBytes) return { events: out, overflow: true };
        onLine(takeLine(chunk, start, end), out);
        start = end + 1;
        if (chunk[end] === CR) {
          if (start === chunk.length) skipLf = true;
          else if (chunk[start] === LF) start++;
        }
      }
      return { events: out, overflow: false };
    },
    end() {
      return { truncated: started || pieces.length > 0 };
    },
  };
}

/** An event as SSE text: the kept fields, then `data` one line per line of it, then the blank line. */
export function formatSseEvent(event: SseEvent): string {
  const lines = event.fields.map(([name, value]) => (name === 'comment' ? ':' : `${name}: ${value}`));
  if (event.data !== undefined) for (const line of event.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}
