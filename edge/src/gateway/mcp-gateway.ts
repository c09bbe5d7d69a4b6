import type { Engine } from '../../../src/engine/core/index.ts';
import { checkElicitationSchema, elicitationDefaults, elicitationMode } from '../../../src/engine/forms/index.ts';
import { formatIssues } from '../../../src/engine/issues/index.ts';
import { exactJsonText, parseJson } from '../../../src/engine/json/index.ts';
import { toolRefusal } from '../../../src/engine/tools/index.ts';
import { unknownToolMessage } from '../../../src/mcp/index.ts';
import { gatewayError } from '../rpc/gateway-error.ts';
import { errorResponse, idKey, isRequest, isResponse, type JsonRpcResponse } from '../rpc/json-rpc.ts';
import { type Later, withToolCache } from '../state/cached-session-store.ts';
import { credentialScope, stateKey } from '../state/credential-scope.ts';
import type { SessionStore, SessionStores, StoredTool } from '../state/session-store.ts';
import { createToolCache, listHints, type ToolCache } from '../state/tool-cache.ts';
import { fetchUpstream } from '../upstream/upstream-fetch.ts';
import type { UpstreamLimits } from '../upstream/upstream-messages.ts';
import { type Exchange, failureResponse, relayUpstream } from '../upstream/upstream-relay.ts';
import { readClientMessage } from './client-message.ts';
import { defaultUpstreamMaxBytes } from './edge-config.ts';
import { findTool } from './find-tool.ts';
import { createMrtrGate } from './mrtr-gate.ts';
import { headerRevision, ownRequest, type ProtocolRevision, requestRevision, sessionKeyFor } from './protocol-revision.ts';
import { createSessionGate, unknownSessionResponse } from './session-gate.ts';
import { createToolGate } from './tool-gate.ts';

export interface McpGatewayOptions {
  readonly engine: Engine;
  /** `UPSTREAM_MCP_URL`, or an upstream of `ALLOWED_UPSTREAMS` a request named, checked first (gateway-router.ts). */
  readonly upstreamUrl: string;
  readonly sessions: SessionStores;
  /** The isolate's tool verdicts (default: a fresh cache for this gateway). */
  readonly toolCache?: ToolCache;
  readonly outputPolicy: 'warn' | 'enforce' | 'off';
  readonly fetch?: typeof fetch;
  /** Largest JSON-RPC message accepted from the client (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Longest wait for the upstream's headers and for each read while an answer is due (`UPSTREAM_TIMEOUT_MS`, default 30 s). */
  readonly upstreamTimeoutMs?: number;
  /** Largest upstream JSON body, SSE event or SSE stream (`UPSTREAM_MAX_BYTES`, default 4 MiB). */
  readonly upstreamMaxBytes?: number;
  /** Key of the MRTR `requestState` envelope (`REQUEST_STATE_SECRET`); unset: random per isolate, dev only. */
  readonly requestStateSecret?: string;
  /** How long a sealed `requestState` may be presented (default 15 minutes). */
  readonly requestStateTtlMs?: number;
  /** Key of the sealed `Mcp-Session-Id`s (`SESSION_SECRET`); unset: random per gateway, so sessions end with it. */
  readonly sessionSecret?: string;
  /** Told about checks that failed; never given the session id or credentials. */
  readonly onEvent?: (event: { readonly kind: string; readonly tool?: string; readonly code: string; readonly message: string }) => void;
}

export const defaultUpstreamTimeoutMs = 30_000;

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
const dropResponse = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'content-type']);
const messageLimits = (maxBytes: number) => ({ maxBytes, maxDepth: 1000 });

/** The `_meta` key of a filtered `tools/list` result that names the refused tools and why. */
export const refusedToolsMeta = 'io.schemaval/refused';

/** This POST's requests still waiting for an answer (by `idKey`): what each is, so its answer gets the right check. */
type PendingCall =
  // `first`: asked without a cursor, so its answer starts a new list that replaces the session's (tool-cache.ts).
  // `revision`: the request's, which decides whether a non-object outputSchema root is malformed (compile-tool.ts).
  | { readonly id: string | number; readonly method: 'tools/list'; readonly first: boolean; readonly revision: ProtocolRevision }
  | { readonly id: string | number; readonly method: 'tools/call'; readonly tool: StoredTool }
  | { readonly id: string | number; readonly method: 'other' };
type Pending = Map<string, PendingCall>;

/**
 * An MCP Streamable HTTP gateway in front of one upstream server (docs/architecture.md#edge). It applies the host adapter's
 * rules on the wire: `tools/list` results lose refused tools; an invalid `tools/call` is answered here with
 * -32602 and never forwarded; `structuredContent` meets the output policy; an upstream `elicitation/create`
 * outside the spec subset is refused to the upstream, and the client's answer is validated before it is
 * forwarded. It fails closed (docs/edge.md, "Threat model"): the client message is read within bounds
 * (`client-message.ts`), the upstream within a timeout and a size cap (`upstream-relay.ts`), and only messages
 * parsed and checked are relayed. `Authorization` passes through unchanged; `Mcp-Session-Id` is sealed towards the
 * client and must verify on the way back (`session-gate.ts`), or the request is answered 404 `unknown_session`.
 */
export function createMcpGateway(options: McpGatewayOptions): (request: Request, later?: Later) => Promise<Response> {
  const upstreamFetch = options.fetch ?? fetch;
  const gate = createToolGate(options.engine);
  const toolCache = options.toolCache ?? createToolCache();
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const limits: UpstreamLimits = {
    timeoutMs: options.upstreamTimeoutMs ?? defaultUpstreamTimeoutMs,
    maxBytes: options.upstreamMaxBytes ?? defaultUpstreamMaxBytes,
  };
  const event = options.onEvent ?? (() => undefined);
  // MCP 2026-07-28 MRTR: input_required results sealed, retried calls' inputResponses checked (mrtr-gate.ts).
  const mrtr = createMrtrGate({
    engine: options.engine,
    upstreamUrl: options.upstreamUrl,
    ...(options.requestStateSecret === undefined ? {} : { secret: options.requestStateSecret }),
    ...(options.requestStateTtlMs === undefined ? {} : { ttlMs: options.requestStateTtlMs }),
  });
  // Session ids are sealed towards the client and checked before they name a state key (session-gate.ts).
  const sessionGate = createSessionGate(options.sessionSecret);

  const forwardHeaders = (request: Request): Headers => {
    const headers = new Headers();
    request.headers.forEach((value, key) => {
      if (!dropRequest.has(key.toLowerCase()) && !key.toLowerCase().startsWith('cf-')) headers.set(key, value);
    });
    return headers;
  };

  const send = (method: string, headers: Headers, body?: string) =>
    fetchUpstream(upstreamFetch, options.upstreamUrl, { method, headers, ...(body === undefined ? {} : { body }) }, limits.timeoutMs);

  /** Posts a message of our own to the upstream within the client's session (a refusal, our own tools/list). */
  const post = (headers: Headers, message: unknown) => {
    const own = new Headers(headers);
    own.set('content-type', 'application/json');
    own.set('accept', 'application/json, text/event-stream');
    return send('POST', own, exactJsonText(message) ?? '{}');
  };

  /** Applies the rules to one parsed upstream message; a result comes with the request it answers. Undefined drops it. */
  const fromUpstream = async (
    message: Record<string, unknown>,
    call: PendingCall | undefined,
    store: SessionStore,
    headers: Headers,
  ): Promise<unknown> => {
    if (isResponse(message)) {
      const result = message.result;
      if (call === undefined || result === undefined) return message;
      if (call.method === 'tools/list' && Array.isArray(result.tools)) {
        const { accepted, refused } = await gate.admit(result.tools, store, { ...listHints(result), first: call.first }, call.revision);
        for (const tool of refused) event({ kind: 'tool_refused', tool: tool.name, ...refusalOf(tool) });
        // Refused tools leave the list, but a host may show why: their names and reasons travel in _meta.
        const meta = {
          ...((result._meta as Record<string, unknown> | undefined) ?? {}),
          [refusedToolsMeta]: refused.map((tool) => ({ name: tool.name, ...refusalOf(tool) })),
        };
        return { ...message, result: { ...result, tools: accepted, _meta: meta } };
      }
      if (call.method === 'tools/call' && result.resultType === 'input_required') return mrtr.answer(message, call.tool.name, headers);
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
      // URL mode has no form to check; a mode that is neither url nor exactly form is refused like a bad form.
      const mode = elicitationMode(params);
      if (mode.mode === 'url') return message;
      const subset = mode.mode === 'form' ? checkElicitationSchema(params.requestedSchema) : undefined;
      const refusal =
        mode.mode === 'unknown'
          ? { code: 'unknown_mode', message: mode.message }
          : subset?.status === 'refused'
            ? subset.refusal
            : undefined;
      if (refusal !== undefined) {
        event({ kind: 'elicitation_refused', ...refusal });
        const error = errorResponse(message.id, -32602, `Elicitation refused: ${refusal.message}`, { code: refusal.code });
        const refused = await post(headers, error);
        if (refused.ok) refused.response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      await store.putElicitation(idKey(message.id), exactJsonText(params.requestedSchema) ?? '{}');
    }
    return message;
  };

  /** Relays an upstream response (or its failure) through the rules. */
  const relay = async (
    sent: Awaited<ReturnType<typeof send>>,
    exchange: Exchange,
    pending: Pending,
    store: SessionStore,
    headers: Headers,
    scope: string,
  ): Promise<Response> => {
    if (!sent.ok) {
      event({ kind: 'upstream_failed', code: sent.code, message: sent.message });
      return failureResponse(sent, pending);
    }
    const outHeaders = new Headers();
    sent.response.headers.forEach((value, key) => {
      if (!dropResponse.has(key.toLowerCase())) outHeaders.set(key, value);
    });
    // The client gets the upstream's session id sealed to its credential; one that cannot be sealed is not relayed.
    if (!(await sessionGate.seal(outHeaders, scope))) {
      sent.response.body?.cancel().catch(() => undefined);
      const failure = {
        code: 'upstream_malformed',
        message: 'the upstream issued an Mcp-Session-Id that is not visible ASCII or is too long',
      } as const;
      event({ kind: 'upstream_failed', ...failure });
      return failureResponse(failure, pending);
    }
    return relayUpstream(sent.response, {
      exchange,
      pending,
      limits,
      headers: outHeaders,
      event: (kind, code, message) => event({ kind, code, message }),
      check: (message, call) => fromUpstream(message, call, store, headers),
    });
  };

  const jsonReply = (message: JsonRpcResponse, status = 200): Response =>
    new Response(exactJsonText(message) ?? '', { status, headers: { 'content-type': 'application/json' } });

  return async (request: Request, later?: Later): Promise<Response> => {
    if (options.upstreamUrl === '')
      return jsonReply(errorResponse(null, -32603, 'the gateway has no upstream (UPSTREAM_MCP_URL is not set)'), 503);
    const headers = forwardHeaders(request);
    // State is keyed by credential and session (credential-scope.ts): no client reaches another credential's state.
    const scope = await credentialScope(options.upstreamUrl, request.headers.get('authorization'));
    // The session id is checked before it names a state key: a forged one reaches no store and no Durable Object
    // (session-gate.ts). A verified one is the upstream's own again, towards the upstream; 2026-07-28 ignores it.
    const openSession = async (revision: ProtocolRevision): Promise<SessionStore | undefined> => {
      const session = await sessionGate.open(request.headers, scope, revision);
      if (!session.ok) {
        event({ kind: 'request_refused', code: 'unknown_session', message: 'a session id the gateway did not issue' });
        return undefined;
      }
      if (session.upstreamId === null) headers.delete('mcp-session-id');
      else headers.set('mcp-session-id', session.upstreamId);
      const key = stateKey(scope, sessionKeyFor(revision, session.upstreamId));
      return withToolCache(options.sessions(key), toolCache, { upstream: options.upstreamUrl, stateKey: key }, undefined, later);
    };
    const pending: Pending = new Map();

    if (request.method === 'GET' || request.method === 'DELETE') {
      const store = await openSession(headerRevision(request.headers));
      if (store === undefined) return unknownSessionResponse(null);
      if (request.method === 'GET') return relay(await send('GET', headers), 'get', pending, store, headers, scope);
      const sent = await send('DELETE', headers);
      if (sent.ok && sent.response.ok) await store.clear();
      return relay(sent, 'delete', pending, store, headers, scope);
    }
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'GET, POST, DELETE' } });

    const read = await readClientMessage(request, maxBodyBytes);
    if (!read.ok) return jsonReply(read.error, read.status);
    let message: Record<string, unknown> = read.message;
    // Header and body must name one revision, or the checks and the upstream could each follow another: fail closed.
    const revision = requestRevision(request.headers, message);
    if (!revision.ok) {
      event({ kind: 'request_refused', code: revision.code, message: revision.message });
      const id = isRequest(message) ? message.id : null;
      return jsonReply(gatewayError(id, revision.code, revision.message), 400);
    }
    const store = await openSession(revision.revision);
    if (store === undefined) return unknownSessionResponse(isRequest(message) ? message.id : null);

    if (isRequest(message) && message.method === 'tools/call') {
      const name = String(message.params?.name ?? '');
      const client = message;
      const found = await findTool(store, name, {
        gate,
        limits,
        revision: revision.revision,
        // The gateway's own tools/list: its own Mcp-Method header, and the client's revision _meta when stateless.
        post: (m) => {
          const own = ownRequest(headers, client, 'tools/list', (m as { params?: Record<string, unknown> }).params ?? {});
          return post(own.headers, { ...(m as object), params: own.params });
        },
      });
      if (!found.ok) {
        event({ kind: 'upstream_failed', tool: name, code: found.code, message: found.message });
        return jsonReply(gatewayError(message.id, found.code, found.message, { tool: name }));
      }
      const tool = found.tool;
      if (tool === undefined) {
        return jsonReply(
          errorResponse(message.id, -32602, unknownToolMessage(name), {
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
      const retry = await mrtr.retry(message, request.headers);
      if (!retry.ok) {
        const code = String((retry.error.error?.data as { code?: unknown } | undefined)?.code);
        event({ kind: 'input_refused', tool: name, code, message: retry.error.error?.message ?? '' });
        return jsonReply(retry.error);
      }
      const id = message.id;
      message = { ...message, params: retry.params };
      pending.set(idKey(id), { id, method: 'tools/call', tool });
    } else if (isRequest(message) && message.method === 'tools/list') {
      pending.set(idKey(message.id), {
        id: message.id,
        method: 'tools/list',
        first: message.params?.cursor === undefined,
        revision: revision.revision,
      });
    } else if (isRequest(message)) {
      pending.set(idKey(message.id), { id: message.id, method: 'other' });
    } else if (isResponse(message)) {
      message = { ...(await checkAnswer(message, store)) };
    }
    const exchange: Exchange = pending.size > 0 ? 'request' : 'post-without-request';
    return relay(await send('POST', headers, exactJsonText(message) ?? ''), exchange, pending, store, headers, scope);
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
    if (outcome.status === 'refused')
      return errorResponse(message.id, -32602, `Elicitation refused: ${outcome.refusal.message}`, { code: outcome.refusal.code });
    if (outcome.status === 'invalid') {
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
