import { stringify } from 'lossless-json';
import { checkElicitationSchema, elicitationDefaults } from '../../src/engine/check-elicitation-schema.ts';
import { toolRefusal } from '../../src/engine/compile-tool.ts';
import type { Engine } from '../../src/engine/create-engine.ts';
import { formatIssues } from '../../src/engine/format-issue.ts';
import { parseJson } from '../../src/engine/parse-json.ts';
import { errorResponse, idKey, isNotificationNamed, isRequest, isResponse, type JsonRpcResponse } from './json-rpc.ts';
import type { SessionStore, SessionStores, StoredTool } from './session-store.ts';
import { transformSse } from './sse-transform.ts';
import { createToolGate } from './tool-gate.ts';

export interface McpGatewayOptions {
  readonly engine: Engine;
  /** From configuration only (`UPSTREAM_MCP_URL`), never from a request. */
  readonly upstreamUrl: string;
  readonly sessions: SessionStores;
  readonly outputPolicy: 'warn' | 'enforce' | 'off';
  readonly fetch?: typeof fetch;
  /** Largest JSON-RPC message accepted from the client (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Told about checks that failed; never given the session id or credentials. */
  readonly onEvent?: (event: { readonly kind: string; readonly tool?: string; readonly code: string; readonly message: string }) => void;
}

/** Headers a proxy must not forward (RFC 9110 §7.6.1), plus those the body rewrite invalidates. */
const dropRequest = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'content-length',
  'proxy-authorization',
  'accept-encoding',
]);
const dropResponse = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);
const messageLimits = (maxBytes: number) => ({ maxBytes, maxDepth: 1000 });
const maxPages = 100;

/** The `_meta` key of a filtered `tools/list` result that names the refused tools and why. */
export const refusedToolsMeta = 'io.schemaval/refused';

/** Context of one client request: which of its JSON-RPC ids are tool calls or lists, and for which tool. */
type Pending = Map<string, { readonly method: 'tools/list' } | { readonly method: 'tools/call'; readonly tool: StoredTool }>;

/**
 * An MCP Streamable HTTP gateway in front of one upstream server (DESIGN §5.4). It applies the host adapter's
 * rules on the wire: `tools/list` results lose refused tools; an invalid `tools/call` is answered here with
 * -32602 and never forwarded; `structuredContent` meets the output policy; an upstream `elicitation/create`
 * outside the spec subset is refused to the upstream, and the client's answer is validated before it is
 * forwarded. `Mcp-Session-Id` and `Authorization` pass through unchanged.
 */
export function createMcpGateway(options: McpGatewayOptions): (request: Request) => Promise<Response> {
  const upstreamFetch = options.fetch ?? fetch;
  const gate = createToolGate(options.engine);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const event = options.onEvent ?? (() => undefined);

  const forwardHeaders = (request: Request): Headers => {
    const headers = new Headers();
    request.headers.forEach((value, key) => {
      if (!dropRequest.has(key.toLowerCase()) && !key.toLowerCase().startsWith('cf-')) headers.set(key, value);
    });
    return headers;
  };

  const send = (method: string, headers: Headers, body?: string): Promise<Response> =>
    upstreamFetch(options.upstreamUrl, { method, headers, ...(body === undefined ? {} : { body }) });

  /** Posts a message of our own to the upstream within the client's session (a refusal, our own tools/list). */
  const post = (headers: Headers, message: unknown): Promise<Response> => {
    const own = new Headers(headers);
    own.set('content-type', 'application/json');
    own.set('accept', 'application/json, text/event-stream');
    return send('POST', own, stringify(message) ?? '{}');
  };

  /** Reads every JSON-RPC message of a JSON or SSE response body. */
  const readMessages = async (response: Response): Promise<unknown[]> => {
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const chunks = type.includes('text/event-stream')
      ? text
          .split(/\r?\n\r?\n/)
          .map((event) =>
            event
              .split(/\r?\n/)
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trimStart())
              .join('\n'),
          )
          .filter((data) => data !== '')
      : [text];
    return chunks.flatMap((chunk) => {
      const parsed = parseJson(chunk, messageLimits(64 * 1024 * 1024));
      return parsed.ok ? (Array.isArray(parsed.value) ? parsed.value : [parsed.value]) : [];
    });
  };

  /** The session's record of a tool; lists the upstream's tools first when the gateway has not seen it. */
  const findTool = async (store: SessionStore, name: string, headers: Headers): Promise<StoredTool | undefined> => {
    const known = await store.getTool(name);
    if (known !== undefined) return known;
    let cursor: unknown;
    for (let page = 0; page < maxPages; page++) {
      const id = `schemaval-tools-list-${page}`;
      const response = await post(headers, { jsonrpc: '2.0', id, method: 'tools/list', params: cursor === undefined ? {} : { cursor } });
      if (!response.ok) return undefined;
      const reply = (await readMessages(response)).find((m) => isResponse(m) && idKey(m.id) === idKey(id)) as JsonRpcResponse | undefined;
      const result = reply?.result as { tools?: unknown; nextCursor?: unknown } | undefined;
      if (!Array.isArray(result?.tools)) return undefined;
      await gate.admit(result.tools, store);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return store.getTool(name);
  };

  /** Applies the rules to one message from the upstream; undefined drops it. */
  const fromUpstream = async (message: unknown, pending: Pending, store: SessionStore, headers: Headers): Promise<unknown> => {
    if (isResponse(message)) {
      const call = pending.get(idKey(message.id));
      const result = message.result;
      if (call === undefined || result === undefined) return message;
      if (call.method === 'tools/list' && Array.isArray(result.tools)) {
        const { accepted, refused } = await gate.admit(result.tools, store);
        for (const tool of refused) event({ kind: 'tool_refused', tool: tool.name, ...refusalOf(tool) });
        // Refused tools leave the list, but a host may show why: their names and reasons travel in _meta.
        const meta = {
          ...((result._meta as Record<string, unknown> | undefined) ?? {}),
          [refusedToolsMeta]: refused.map((tool) => ({ name: tool.name, ...refusalOf(tool) })),
        };
        return { ...message, result: { ...result, tools: accepted, _meta: meta } };
      }
      if (call.method === 'tools/call' && options.outputPolicy !== 'off') {
        const outcome = await gate.checkOutput(call.tool, result);
        if (outcome.ok) return message;
        event({ kind: 'output_mismatch', tool: call.tool.name, code: outcome.code, message: outcome.message });
        if (options.outputPolicy === 'enforce') {
          return errorResponse(message.id, -32602, outcome.message, {
            tool: call.tool.name,
            code: outcome.code,
            issues: outcome.issues ?? [],
          });
        }
      }
      return message;
    }
    if (isRequest(message) && message.method === 'elicitation/create') {
      const params = message.params ?? {};
      if ((params.mode ?? 'form') !== 'form') return message;
      const subset = checkElicitationSchema(params.requestedSchema);
      if (!subset.ok) {
        event({ kind: 'elicitation_refused', code: 'invalid_schema', message: subset.message });
        await post(headers, errorResponse(message.id, -32602, `Elicitation refused: ${subset.message}`, { code: 'invalid_schema' }));
        return undefined;
      }
      await store.putElicitation(idKey(message.id), stringify(params.requestedSchema) ?? '{}');
    }
    return message;
  };

  /** Rewrites an upstream response body message by message, JSON or SSE. */
  const relay = async (response: Response, pending: Pending, store: SessionStore, headers: Headers): Promise<Response> => {
    const outHeaders = new Headers();
    response.headers.forEach((value, key) => {
      if (!dropResponse.has(key.toLowerCase())) outHeaders.set(key, value);
    });
    const type = response.headers.get('content-type') ?? '';
    if (response.body === null || !response.ok) return new Response(response.body, { status: response.status, headers: outHeaders });
    if (type.includes('text/event-stream')) {
      const body = transformSse(response.body, async (data) => {
        const parsed = parseJson(data, messageLimits(64 * 1024 * 1024));
        if (!parsed.ok) return data;
        const out = await fromUpstream(parsed.value, pending, store, headers);
        return out === undefined ? undefined : stringify(out);
      });
      return new Response(body, { status: response.status, headers: outHeaders });
    }
    if (type.includes('application/json')) {
      const parsed = parseJson(await response.text(), messageLimits(64 * 1024 * 1024));
      if (!parsed.ok) return new Response('upstream sent malformed JSON', { status: 502 });
      const messages = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      const out = (await Promise.all(messages.map((m) => fromUpstream(m, pending, store, headers)))).filter((m) => m !== undefined);
      return new Response(stringify(Array.isArray(parsed.value) ? out : out[0]) ?? '', { status: response.status, headers: outHeaders });
    }
    return new Response(response.body, { status: response.status, headers: outHeaders });
  };

  const jsonReply = (message: JsonRpcResponse, status = 200): Response =>
    new Response(stringify(message) ?? '', { status, headers: { 'content-type': 'application/json' } });

  return async (request: Request): Promise<Response> => {
    if (options.upstreamUrl === '')
      return jsonReply(errorResponse(null, -32603, 'the gateway has no upstream (UPSTREAM_MCP_URL is not set)'), 503);
    const headers = forwardHeaders(request);
    const store = options.sessions(request.headers.get('mcp-session-id') ?? 'stateless');
    const pending: Pending = new Map();

    if (request.method === 'GET') return relay(await send('GET', headers), pending, store, headers);
    if (request.method === 'DELETE') {
      const response = await send('DELETE', headers);
      if (response.ok) await store.clear();
      return relay(response, pending, store, headers);
    }
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'GET, POST, DELETE' } });

    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > maxBodyBytes) return jsonReply(errorResponse(null, -32600, `message over ${maxBodyBytes} bytes`), 413);
    const text = await request.text();
    const parsed = parseJson(text, messageLimits(maxBodyBytes));
    if (!parsed.ok) {
      const status = parsed.code === 'too_large' ? 413 : 400;
      return jsonReply(
        errorResponse(null, parsed.code === 'malformed' ? -32700 : -32600, `cannot read the message: ${parsed.message}`),
        status,
      );
    }
    let message = parsed.value;
    if (Array.isArray(message)) return jsonReply(errorResponse(null, -32600, 'JSON-RPC batches are not supported by this gateway'), 400);

    // A notification has no answer to check against, so a call must be a request.
    if (isNotificationNamed(message, 'tools/call')) {
      return jsonReply(errorResponse(null, -32600, 'tools/call must be a request with an id; the notification was not sent'), 400);
    }
    if (isRequest(message) && message.method === 'tools/call') {
      const name = String(message.params?.name ?? '');
      const tool = await findTool(store, name, headers);
      if (tool === undefined) {
        return jsonReply(
          errorResponse(message.id, -32602, `Tool "${name}" is not in the server's tool list; the call was not sent`, {
            tool: name,
            code: 'unknown_tool',
          }),
        );
      }
      const outcome = await gate.checkCall(tool, message.params?.arguments);
      if (!outcome.ok) {
        event({ kind: 'call_refused', tool: name, code: outcome.code, message: outcome.message });
        return jsonReply(
          errorResponse(message.id, -32602, outcome.message, { tool: name, code: outcome.code, issues: outcome.issues ?? [] }),
        );
      }
      pending.set(idKey(message.id), { method: 'tools/call', tool });
    } else if (isRequest(message) && message.method === 'tools/list') {
      pending.set(idKey(message.id), { method: 'tools/list' });
    } else if (isResponse(message)) {
      message = await checkAnswer(message, store);
    }
    return relay(await send('POST', headers, stringify(message) ?? ''), pending, store, headers);
  };

  /** The client's answer to an upstream elicitation: defaults filled, then validated, before it is forwarded. */
  async function checkAnswer(message: JsonRpcResponse, store: SessionStore): Promise<JsonRpcResponse> {
    const stored = await store.takeElicitation(idKey(message.id));
    const result = message.result as { action?: unknown; content?: Record<string, unknown> } | undefined;
    if (stored === undefined || result?.action !== 'accept') return message;
    const schema = parseJson(stored, messageLimits(64 * 1024 * 1024));
    if (!schema.ok) return errorResponse(message.id, -32603, 'the gateway lost the form it sent');
    const content = { ...elicitationDefaults(schema.value), ...(result.content ?? {}) };
    const outcome = await options.engine.validateElicitation(schema.value, content);
    if ('refused' in outcome)
      return errorResponse(message.id, -32602, `Elicitation refused: ${outcome.refused.message}`, { code: outcome.refused.code });
    if (!outcome.valid) {
      const lines = formatIssues(outcome.issues, Number.POSITIVE_INFINITY);
      event({ kind: 'answer_refused', code: 'invalid_answer', message: lines });
      return errorResponse(message.id, -32602, `Elicitation answer does not match requestedSchema: ${lines}`, {
        code: 'invalid_answer',
        issues: outcome.issues,
      });
    }
    return { ...message, result: { ...result, content } };
  }
}

/** A refused stored tool's code and message. */
function refusalOf(tool: StoredTool): { code: string; message: string } {
  const { code, message } = toolRefusal(tool.verdict) ?? { code: 'refused', message: 'refused' };
  return { code, message };
}
