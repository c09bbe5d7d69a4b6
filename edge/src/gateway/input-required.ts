import type { Engine } from '../../../src/engine/core/index.ts';
import { checkElicitationSchema, elicitationDefaults, elicitationMode } from '../../../src/engine/forms/index.ts';
import { formatIssues } from '../../../src/engine/issues/index.ts';
import { isJsonObject } from '../../../src/engine/json/index.ts';
import type { Issue } from '../../../src/protocol/issue.ts';
import type { RequestStateSealer } from './request-state.ts';

/** A refusal the gateway answers with as a JSON-RPC error under the request's id. */
export interface MrtrRefusal {
  readonly code: number;
  readonly message: string;
  readonly data: { readonly code: string; readonly [key: string]: unknown };
}

/** What both directions need: the envelope's key, the call's tool, the caller's credential scope and the clock. */
export interface MrtrContext {
  readonly sealer: RequestStateSealer;
  readonly tool: string;
  /** Hex SHA-256 credential scope of the request (never the credential). */
  readonly scope: string;
  readonly now: number;
}

type Json = Record<string, unknown>;
const actions = new Set(['accept', 'decline', 'cancel']);

/** A `tools/call` result asking for input (MRTR, MCP 2026-07-28 basic/patterns/mrtr). */
export const isInputRequired = (result: unknown): result is Json => isJsonObject(result) && result.resultType === 'input_required';

/** A `tools/call` that retries an MRTR round: it carries `inputResponses` or a `requestState`. */
export const isMrtrRetry = (params: unknown): params is Json =>
  isJsonObject(params) && (params.inputResponses !== undefined || params.requestState !== undefined);

/**
 * Checks an upstream `InputRequiredResult` before the client sees it and seals its `requestState`: every form-mode
 * `elicitation/create` must be the restricted form subset, or the client gets -32602 `invalid_schema` instead; one
 * of a mode that is neither `form` (or none) nor `url` gets -32602 `unknown_mode`. Sampling, roots and URL-mode
 * elicitation requests pass unchanged (their answers are not schema-checked; their keys are still named in the
 * envelope). The upstream's `requestState` is replaced by the gateway's envelope.
 */
export async function sealInputRequired(
  result: Json,
  context: MrtrContext & { readonly ttlMs: number },
): Promise<{ ok: true; result: Json } | { ok: false; refusal: MrtrRefusal }> {
  const requests = result.inputRequests ?? {};
  if (!isJsonObject(requests)) return { ok: false, refusal: malformed('inputRequests is not an object') };
  if (result.requestState !== undefined && typeof result.requestState !== 'string') {
    return { ok: false, refusal: malformed('requestState is not a string') };
  }
  const inputs: Json = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!isJsonObject(request) || typeof request.method !== 'string')
      return { ok: false, refusal: malformed(`inputRequests${member(key)} is not a request`) };
    const params = isJsonObject(request.params) ? request.params : {};
    let schema: unknown = null;
    // The engine decides the mode for every surface: absent or exactly "form", exactly "url", or refused.
    const mode = request.method === 'elicitation/create' ? elicitationMode(params) : undefined;
    if (mode?.mode === 'unknown') {
      return {
        ok: false,
        refusal: {
          code: -32602,
          message: `Elicitation refused: inputRequests${member(key)}: ${mode.message}; the server's request was not relayed`,
          data: { code: 'unknown_mode', input: key },
        },
      };
    }
    if (mode?.mode === 'form') {
      const subset = checkElicitationSchema(params.requestedSchema);
      if (subset.status === 'refused') {
        return {
          ok: false,
          refusal: {
            code: -32602,
            message: `Elicitation refused: inputRequests${member(key)}: ${subset.refusal.message}; the server's request was not relayed`,
            data: { code: subset.refusal.code, input: key },
          },
        };
      }
      schema = params.requestedSchema;
    }
    define(inputs, key, schema);
  }
  const state = typeof result.requestState === 'string' ? result.requestState : undefined;
  const sealed = await context.sealer.seal({
    tool: context.tool,
    scope: context.scope,
    ...(state === undefined ? {} : { state }),
    inputs,
    expires: context.now + context.ttlMs,
  });
  return { ok: true, result: { ...result, requestState: sealed } };
}

/**
 * Checks a retried `tools/call`'s `requestState` and `inputResponses` before anything is forwarded: the envelope
 * must verify, be unexpired and issued to this scope for this tool; every response key must be one the envelope
 * names; every accepted form answer gets its defaults and must match the `requestedSchema` that was sent (formats
 * asserted). On success the params carry the completed answers and the upstream's own `requestState` (or none).
 */
export async function openInputResponses(
  params: Json,
  context: MrtrContext & { readonly engine: Engine },
): Promise<{ ok: true; params: Json } | { ok: false; refusal: MrtrRefusal }> {
  const token = params.requestState;
  if (typeof token !== 'string') {
    // Only the gateway's envelope can vouch for a response key, and there is none.
    return {
      ok: false,
      refusal: badState(token === undefined ? 'inputResponses without the requestState they answer' : 'requestState is not a string'),
    };
  }
  const opened = await context.sealer.open(token, context.now);
  if (!opened.ok)
    return { ok: false, refusal: badState(`requestState is ${opened.reason === 'expired' ? 'expired' : 'not one this gateway issued'}`) };
  const { payload } = opened;
  if (payload.tool !== context.tool || payload.scope !== context.scope) {
    return { ok: false, refusal: badState('requestState was issued for another call or credential') };
  }
  const responses = params.inputResponses ?? {};
  if (!isJsonObject(responses)) return { ok: false, refusal: invalidAnswer('inputResponses', 'inputResponses must be an object', []) };

  const completed: Json = {};
  for (const [key, response] of Object.entries(responses)) {
    if (!Object.hasOwn(payload.inputs, key)) {
      return {
        ok: false,
        refusal: {
          code: -32602,
          message: `inputResponses${member(key)}: no input request of that name was sent; the call was not sent`,
          data: { code: 'unknown_input_response', input: key },
        },
      };
    }
    const schema = payload.inputs[key];
    if (schema === null || schema === undefined) {
      define(completed, key, response);
      continue;
    }
    const answer = await checkAnswer(key, schema, response, context.engine);
    if (!answer.ok) return answer;
    define(completed, key, answer.value);
  }

  const { requestState: _sealed, inputResponses: _raw, ...rest } = params;
  return {
    ok: true,
    params: {
      ...rest,
      ...(params.inputResponses === undefined ? {} : { inputResponses: completed }),
      ...(payload.state === undefined ? {} : { requestState: payload.state }),
    },
  };
}

/** One elicitation answer: an `ElicitResult`; on accept, defaults filled in, then validated. */
async function checkAnswer(
  key: string,
  schema: unknown,
  response: unknown,
  engine: Engine,
): Promise<{ ok: true; value: unknown } | { ok: false; refusal: MrtrRefusal }> {
  const where = `inputResponses${member(key)}`;
  if (!isJsonObject(response) || typeof response.action !== 'string' || !actions.has(response.action)) {
    const issue: Issue = { path: '$.action', keyword: 'enum', message: 'want "accept", "decline" or "cancel"' };
    return { ok: false, refusal: invalidAnswer(key, `${where}: ${issue.path}: ${issue.message}`, [issue]) };
  }
  if (response.action !== 'accept') {
    // A declined or cancelled form carries no content; none the gateway did not check is passed on.
    const { content: _dropped, ...rest } = response;
    return { ok: true, value: rest };
  }
  if (response.content !== undefined && !isJsonObject(response.content)) {
    const issue: Issue = { path: '$', keyword: 'type', message: 'content must be an object' };
    return { ok: false, refusal: invalidAnswer(key, `${where}: ${issue.path}: ${issue.message}`, [issue]) };
  }
  const content = { ...elicitationDefaults(schema), ...((response.content as Json | undefined) ?? {}) };
  const outcome = await engine.validateElicitation(schema, content);
  if (outcome.status === 'refused') {
    return {
      ok: false,
      refusal: {
        code: -32602,
        message: `${where}: elicitation refused: ${outcome.refusal.message}`,
        data: { code: outcome.refusal.code, input: key },
      },
    };
  }
  if (outcome.status === 'invalid')
    return { ok: false, refusal: invalidAnswer(key, `${where}: ${formatIssues(outcome.issues)}`, outcome.issues) };
  return { ok: true, value: { ...response, content } };
}

function invalidAnswer(key: string, message: string, issues: readonly Issue[]): MrtrRefusal {
  return {
    code: -32602,
    message: `Elicitation answer does not match requestedSchema: ${message}; the call was not sent`,
    data: { code: 'invalid_answer', input: key, issues },
  };
}

function badState(reason: string): MrtrRefusal {
  return { code: -32602, message: `Invalid requestState: ${reason}; the call was not sent`, data: { code: 'invalid_request_state' } };
}

function malformed(reason: string): MrtrRefusal {
  return { code: -32603, message: `The upstream's input_required result is malformed: ${reason}`, data: { code: 'upstream_malformed' } };
}

/** `.key` for identifier-like keys, `["odd key"]` otherwise (as issue paths are written). */
function member(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Sets an own property even when the key is `__proto__`. */
function define(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
