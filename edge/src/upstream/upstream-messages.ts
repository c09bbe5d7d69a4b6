import { parseJson } from '../../../src/engine/json/index.ts';
import { decodeUtf8, readLimitedBytes } from '../http/read-limited-text.ts';
import { readWithin } from '../http/read-within.ts';
import type { UpstreamFailure } from '../rpc/gateway-error.ts';
import { createSseParser, type SseField } from './sse-transform.ts';

/** Bounds on everything read from the upstream (`UPSTREAM_TIMEOUT_MS`, `UPSTREAM_MAX_BYTES`). */
export interface UpstreamLimits {
  /** Longest wait for response headers, and for each read of a body while an answer is due. */
  readonly timeoutMs: number;
  /** Largest JSON body, SSE event, and SSE stream. */
  readonly maxBytes: number;
}

/** Nesting allowed in an upstream message: the engine bounds each schema and instance on its own. */
const maxDepth = 1000;

export type ParsedMessage = { readonly ok: true; readonly value: unknown } | ({ readonly ok: false } & UpstreamFailure);

/** Parses one message losslessly; duplicate keys and anything else unreadable are `upstream_malformed`. */
export function parseUpstreamMessage(text: string, maxBytes: number, wholeBody = false): ParsedMessage {
  const parsed = parseJson(text, { maxBytes, maxDepth });
  if (parsed.ok) return parsed;
  if (parsed.code === 'too_large') return { ok: false, code: 'upstream_too_large', message: `an upstream message ${parsed.message}` };
  // A body that stops mid-value was cut off; inside a complete SSE event the same text is just malformed.
  if (wholeBody && /reached end of input/.test(parsed.message))
    return { ok: false, code: 'upstream_truncated', message: 'the upstream body ends in the middle of a message' };
  return { ok: false, code: 'upstream_malformed', message: `the upstream sent unreadable JSON (${parsed.code})` };
}

/** Reads and parses a whole `application/json` body within the limits. */
export async function readJsonBody(response: Response, limits: UpstreamLimits): Promise<ParsedMessage> {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limits.maxBytes) {
    response.body?.cancel().catch(() => undefined);
    return { ok: false, code: 'upstream_too_large', message: `the upstream body is over ${limits.maxBytes} bytes` };
  }
  const read = await readLimitedBytes(response.body, limits.maxBytes, limits.timeoutMs);
  if (!read.ok) {
    if (read.reason === 'too_large')
      return { ok: false, code: 'upstream_too_large', message: `the upstream body is over ${limits.maxBytes} bytes` };
    if (read.reason === 'timeout')
      return { ok: false, code: 'upstream_timeout', message: `the upstream sent nothing for ${limits.timeoutMs} ms` };
    return { ok: false, code: 'upstream_truncated', message: 'the upstream body broke off' };
  }
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return { ok: false, code: 'upstream_malformed', message: 'the upstream body is not UTF-8' };
  return parseUpstreamMessage(text, limits.maxBytes, true);
}

/** What an SSE body yields: parsed messages, events without data, unreadable data, and how the stream ended. */
export type SseItem =
  | { readonly kind: 'message'; readonly value: unknown; readonly fields: readonly SseField[] }
  | { readonly kind: 'fields'; readonly fields: readonly SseField[] }
  | { readonly kind: 'malformed'; readonly failure: UpstreamFailure }
  | { readonly kind: 'end' }
  | { readonly kind: 'failure'; readonly failure: UpstreamFailure };

export interface SseReader {
  /** The items of the next chunk(s); the last item of the stream is `end` or `failure`. */
  next(): Promise<readonly SseItem[]>;
  cancel(): void;
}

/**
 * Reads an SSE body within the limits: each event and the stream as a whole at most `maxBytes`, and — while
 * `timed()` says an answer is due — no read waiting longer than `timeoutMs`. A stream that ends inside an event
 * is `upstream_truncated`; every failure cancels the upstream body.
 */
export function readSse(body: ReadableStream<Uint8Array>, limits: UpstreamLimits, timed: () => boolean): SseReader {
  const reader = body.getReader();
  const parser = createSseParser({ maxEventBytes: limits.maxBytes });
  let total = 0;
  let finished = false;
  const cancel = (): void => {
    finished = true;
    reader.cancel().catch(() => undefined);
  };
  const fail = (code: UpstreamFailure['code'], message: string): SseItem[] => {
    cancel();
    return [{ kind: 'failure', failure: { code, message } }];
  };
  return {
    cancel,
    async next() {
      if (finished) return [{ kind: 'end' }];
      for (;;) {
        const read = await readWithin(reader, timed() ? limits.timeoutMs : undefined);
        if (read.kind === 'timeout') return fail('upstream_timeout', `the upstream stream was silent for ${limits.timeoutMs} ms`);
        if (read.kind === 'error') return fail('upstream_truncated', 'the upstream stream broke off');
        if (read.kind === 'done') {
          finished = true;
          if (parser.end().truncated)
            return [{ kind: 'failure', failure: { code: 'upstream_truncated', message: 'the upstream stream ended inside an event' } }];
          return [{ kind: 'end' }];
        }
        total += read.value.byteLength;
        if (total > limits.maxBytes) return fail('upstream_too_large', `the upstream stream passed ${limits.maxBytes} bytes`);
        const pushed = parser.push(read.value);
        const items: SseItem[] = pushed.events.map((event): SseItem => {
          if (event.data === undefined) return { kind: 'fields', fields: event.fields };
          const parsed = parseUpstreamMessage(event.data, limits.maxBytes);
          return parsed.ok ? { kind: 'message', value: parsed.value, fields: event.fields } : { kind: 'malformed', failure: parsed };
        });
        if (pushed.overflow) return [...items, ...fail('upstream_too_large', `an upstream event passed ${limits.maxBytes} bytes`)];
        if (items.length > 0) return items;
      }
    },
  };
}
