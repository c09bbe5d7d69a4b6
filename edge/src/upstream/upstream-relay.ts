import { exactJsonText, isJsonObject } from '../../../src/engine/json/index.ts';
import { GatewayStateError, gatewayError, type UpstreamFailure } from '../rpc/gateway-error.ts';
import { idKey, isRequest, isResponse, type JsonRpcResponse } from '../rpc/json-rpc.ts';
import { formatSseEvent, type SseField } from './sse-transform.ts';
import { mediaType } from './upstream-fetch.ts';
import { readJsonBody, readSse, type SseReader, type UpstreamLimits } from './upstream-messages.ts';

/** A request of the client's POST that still waits for its answer. */
export interface PendingRequest {
  readonly id: string | number;
}

/** This POST's requests still unanswered, by `idKey`. */
export type PendingRequests<T extends PendingRequest = PendingRequest> = Map<string, T>;

/** What kind of exchange a relayed response belongs to. */
export type Exchange = 'request' | 'post-without-request' | 'get' | 'delete';

export interface RelayOptions<T extends PendingRequest = PendingRequest> {
  readonly exchange: Exchange;
  /** The client's requests in this POST; answered ones are removed as they are relayed. */
  readonly pending: PendingRequests<T>;
  readonly limits: UpstreamLimits;
  /**
   * Applies the gateway's rules to a parsed message; undefined drops it. A result comes with the request it
   * answers, under the client's own id.
   */
  readonly check: (message: Record<string, unknown>, answers?: T) => Promise<unknown>;
  readonly event: (kind: string, code: string, message: string) => void;
  /** Upstream response headers to pass on (hop-by-hop and body headers already removed). */
  readonly headers: Headers;
}

/** A JSON-RPC error object the gateway can re-serialise: an integer code and a string message. */
const isErrorObject = (value: unknown): value is { code: number; message: string; data?: unknown } =>
  isJsonObject(value) && Number.isInteger(value.code) && typeof value.message === 'string';

const json = (message: unknown, status: number, headers?: Headers): Response => {
  const out = new Headers(headers);
  out.set('content-type', 'application/json');
  return new Response(exactJsonText(message) ?? 'null', { status, headers: out });
};

/**
 * The client's answer when the upstream failed: under the pending request's id with HTTP 200 (an SDK client then
 * surfaces an McpError), or with id null when the POST held no request.
 */
export function failureResponse(failure: UpstreamFailure, pending: ReadonlyMap<string, PendingRequest>, status?: number): Response {
  const [first] = pending.values();
  if (first !== undefined) return json(gatewayError(first.id, failure.code, failure.message), 200);
  return json(gatewayError(null, failure.code, failure.message), status ?? (failure.code === 'upstream_timeout' ? 504 : 502));
}

/**
 * Routes one parsed upstream message: a response to one of this POST's requests is checked and relayed under the
 * client's id (once); a response to anything else, or a message of no JSON-RPC shape, is dropped; server requests
 * and notifications are checked and relayed.
 */
async function route<T extends PendingRequest>(message: unknown, options: RelayOptions<T>): Promise<unknown> {
  if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
    options.event('upstream_dropped', 'upstream_malformed', 'a message that is not JSON-RPC 2.0 was dropped');
    return undefined;
  }
  if (isResponse(message)) {
    const key = idKey(message.id);
    const request = options.pending.get(key);
    if (request === undefined) {
      options.event('upstream_dropped', 'unknown_response', 'a response to no request of this POST was dropped');
      return undefined;
    }
    options.pending.delete(key);
    const hasResult = 'result' in message;
    if (hasResult === 'error' in message || (hasResult ? !isJsonObject(message.result) : !isErrorObject(message.error))) {
      return gatewayError(request.id, 'upstream_malformed', 'the upstream answered with a malformed JSON-RPC response');
    }
    if (!hasResult) {
      const { code, message: text, data } = message.error as { code: number; message: string; data?: unknown };
      return { jsonrpc: '2.0', id: request.id, error: { code, message: text, ...(data === undefined ? {} : { data }) } };
    }
    try {
      return await options.check({ jsonrpc: '2.0', id: request.id, result: message.result }, request);
    } catch (error) {
      // The session state could not keep what the answer needs (a list over its bound, a store that failed).
      if (!(error instanceof GatewayStateError)) throw error;
      options.event('upstream_failed', error.code, error.message);
      return gatewayError(request.id, error.code, error.message);
    }
  }
  if (typeof message.method === 'string' && (!('id' in message) || typeof message.id === 'string' || typeof message.id === 'number')) {
    try {
      return await options.check(message);
    } catch (error) {
      // A server request whose state could not be kept (an elicitation's form) is not relayed: its answer could not be checked.
      if (!(error instanceof GatewayStateError)) throw error;
      options.event('upstream_dropped', error.code, error.message);
      return undefined;
    }
  }
  options.event('upstream_dropped', 'upstream_malformed', 'a message of no JSON-RPC shape was dropped');
  return undefined;
}

/**
 * Turns an upstream response into the client's: only messages the gateway parsed and checked are relayed, within
 * the limits; anything else becomes a JSON-RPC error with a stable `data.code` (docs/edge.md, "Threat model").
 */
export async function relayUpstream<T extends PendingRequest>(response: Response, options: RelayOptions<T>): Promise<Response> {
  const { exchange, pending, limits } = options;
  const type = mediaType(response.headers.get('content-type'));

  if (!response.ok) {
    // A JSON-RPC error is passed on, parsed and re-serialised, with the upstream's status (404: session gone).
    if (type === 'application/json') {
      const parsed = await readJsonBody(response, limits);
      const message = parsed.ok ? parsed.value : undefined;
      if (isResponse(message) && !('result' in message) && isErrorObject(message.error)) {
        const request = pending.get(idKey(message.id));
        const { code, message: text, data } = message.error;
        const error: JsonRpcResponse = {
          jsonrpc: '2.0',
          id: request?.id ?? null,
          error: { code, message: text, ...(data === undefined ? {} : { data }) },
        };
        return json(error, response.status);
      }
    } else {
      response.body?.cancel().catch(() => undefined);
    }
    return failureResponse({ code: 'upstream_error', message: `the upstream answered HTTP ${response.status}` }, pending, response.status);
  }

  if (exchange === 'post-without-request' || exchange === 'delete') {
    // Nothing is due: no body is relayed (a notification or an answer gets 202, as the spec has it).
    response.body?.cancel().catch(() => undefined);
    return new Response(null, { status: exchange === 'delete' ? response.status : 202, headers: options.headers });
  }

  if (type === 'text/event-stream' && response.body !== null) return relaySse(response.body, options);

  if (exchange === 'request' && type === 'application/json') {
    const parsed = await readJsonBody(response, limits);
    if (!parsed.ok) return failureResponse(parsed, pending);
    const out = await route(parsed.value, options);
    if (pending.size > 0 || !isResponse(out)) {
      return failureResponse({ code: 'upstream_malformed', message: 'the upstream body is not the answer to this request' }, pending);
    }
    return json(out, response.status, options.headers);
  }

  if (exchange === 'request' && response.status === 202 && type === '') {
    return failureResponse({ code: 'upstream_error', message: 'the upstream accepted the request but sent no answer' }, pending);
  }
  response.body?.cancel().catch(() => undefined);
  return failureResponse(
    { code: 'upstream_content_type', message: `the upstream sent ${type === '' ? 'no content type' : JSON.stringify(type.slice(0, 100))}` },
    pending,
  );
}

/**
 * After a POST's last answer the upstream usually ends its stream at once. Reading that end (instead of cancelling the
 * body) lets workerd keep the upstream connection for the next request: cancelling costs a new TCP connection per
 * call. Bounded: at most `settleMs` and `settleReads` reads, nothing of it relayed; past either, the body is cancelled.
 */
const settleMs = 50;
const settleReads = 4;

async function settle(source: SseReader): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, settleMs, 'late');
  });
  try {
    for (let read = 0; read < settleReads; read++) {
      const items = await Promise.race([source.next(), late]);
      if (items === 'late') break;
      // `end`: the upstream finished; `failure`: the reader already cancelled itself.
      if (items.some((item) => item.kind === 'end' || item.kind === 'failure')) return;
    }
    source.cancel();
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * An SSE response rewritten event by event. Unreadable data ends the stream with an error for each request still
 * pending (on a GET stream, where nothing is pending, it is dropped); so do a silent upstream (while an answer is
 * due and no server request waits for the client), an oversized event or stream, and a stream cut off mid-event.
 * A POST's stream ends once every request is answered.
 */
function relaySse<T extends PendingRequest>(body: ReadableStream<Uint8Array>, options: RelayOptions<T>): Response {
  const { pending } = options;
  const encoder = new TextEncoder();
  // Set after relaying a server request (an elicitation waits on a human), cleared by the next upstream chunk.
  let waitingOnClient = false;
  const source = readSse(body, options.limits, () => pending.size > 0 && !waitingOnClient);
  const endWith = (controller: ReadableStreamDefaultController<Uint8Array>, failure?: UpstreamFailure): void => {
    if (failure !== undefined) {
      options.event('upstream_failed', failure.code, failure.message);
      for (const request of pending.values()) {
        controller.enqueue(
          encoder.encode(formatSseEvent({ data: exactJsonText(gatewayError(request.id, failure.code, failure.message)), fields: [] })),
        );
      }
    }
    pending.clear();
    source.cancel();
    controller.close();
  };
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, data: string | undefined, fields: readonly SseField[]): void => {
    controller.enqueue(encoder.encode(formatSseEvent({ data, fields })));
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const wasPost = options.exchange === 'request';
      // Loop until something was enqueued or the stream closed: a pull that enqueues nothing is not called again.
      for (;;) {
        const items = await source.next();
        waitingOnClient = false;
        let wrote = false;
        for (const item of items) {
          if (item.kind === 'end') {
            endWith(
              controller,
              pending.size > 0 ? { code: 'upstream_truncated', message: 'the upstream stream ended before answering' } : undefined,
            );
            return;
          }
          if (item.kind === 'failure') {
            endWith(controller, item.failure);
            return;
          }
          if (item.kind === 'malformed') {
            if (pending.size > 0) {
              endWith(controller, item.failure);
              return;
            }
            options.event('upstream_dropped', item.failure.code, item.failure.message);
            continue;
          }
          if (item.kind === 'fields') {
            emit(controller, undefined, item.fields);
            wrote = true;
            continue;
          }
          const out = await route(item.value, options);
          if (out === undefined) continue;
          if (isRequest(out)) waitingOnClient = true;
          emit(controller, exactJsonText(out), item.fields);
          wrote = true;
        }
        if (wasPost && pending.size === 0) {
          controller.close();
          await settle(source);
          return;
        }
        if (wrote) return;
      }
    },
    cancel() {
      source.cancel();
    },
  });
  const headers = new Headers(options.headers);
  headers.set('content-type', 'text/event-stream');
  headers.set('cache-control', 'no-cache');
  return new Response(stream, { status: 200, headers });
}
