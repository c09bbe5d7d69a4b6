import type { Engine } from '../../../src/engine/core/index.ts';
import { errorResponse, type JsonRpcResponse } from '../rpc/json-rpc.ts';
import { credentialScope } from '../state/credential-scope.ts';
import { isInputRequired, isMrtrRetry, openInputResponses, sealInputRequired } from './input-required.ts';
import { createRequestStateSealer } from './request-state.ts';

export interface MrtrGateOptions {
  readonly engine: Engine;
  readonly upstreamUrl: string;
  /** `REQUEST_STATE_SECRET`; unset: a random key per isolate (dev only: another isolate cannot open the envelope). */
  readonly secret?: string;
  /** How long a sealed requestState may be presented (default 15 minutes: a person fills the form in between). */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** The gateway's two MRTR hooks: on a client's `tools/call` (a retry) and on the upstream's answer to one. */
export interface MrtrGate {
  /** A retried call's `requestState` and `inputResponses` checked and unsealed; an error response to send instead otherwise. */
  retry(
    message: { readonly id: string | number; readonly params?: Record<string, unknown> },
    headers: Headers,
  ): Promise<{ ok: true; params: Record<string, unknown> | undefined } | { ok: false; error: JsonRpcResponse }>;
  /** An upstream `tools/call` response: an `input_required` result checked and its `requestState` sealed; others unchanged. */
  answer(message: JsonRpcResponse, tool: string, headers: Headers): Promise<JsonRpcResponse>;
}

export const defaultRequestStateTtlMs = 15 * 60 * 1000;

/** Builds the hooks around one sealer (one key per gateway, so per isolate). */
export function createMrtrGate(options: MrtrGateOptions): MrtrGate {
  const sealer = createRequestStateSealer(options.secret);
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? defaultRequestStateTtlMs;
  const scopeOf = (headers: Headers) => credentialScope(options.upstreamUrl, headers.get('authorization'));

  return {
    async retry(message, headers) {
      const params = message.params;
      if (!isMrtrRetry(params)) return { ok: true, params };
      const context = { sealer, engine: options.engine, tool: String(params.name ?? ''), scope: await scopeOf(headers), now: now() };
      const opened = await openInputResponses(params, context);
      if (!opened.ok)
        return { ok: false, error: errorResponse(message.id, opened.refusal.code, opened.refusal.message, opened.refusal.data) };
      return { ok: true, params: opened.params };
    },
    async answer(message, tool, headers) {
      if (!isInputRequired(message.result) || message.id === null) return message;
      const sealed = await sealInputRequired(message.result, { sealer, tool, scope: await scopeOf(headers), now: now(), ttlMs });
      if (!sealed.ok) return errorResponse(message.id, sealed.refusal.code, sealed.refusal.message, sealed.refusal.data);
      return { ...message, result: sealed.result };
    },
  };
}
