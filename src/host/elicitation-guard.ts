import { checkElicitationSchema, elicitationDefaults, elicitationMode } from '../engine/forms/index.ts';
import { formatIssues } from '../engine/issues/index.ts';
import type { ValidatorService } from '../protocol/validator-service.ts';
import { invalidParams } from './invalid-params.ts';

type Handler = (request: { params?: Record<string, unknown> }, extra: unknown) => unknown;

/**
 * A client whose `elicitation/create` handler can be guarded: the v1 SDK `Client` (`setRequestHandler(schema, h)`)
 * and the v2 `@modelcontextprotocol/client` `Client` (`setRequestHandler('elicitation/create', h)`). Both keep
 * their handlers in `_requestHandlers` by method, and v2's MRTR driver fulfils an `InputRequiredResult`'s
 * elicitation `inputRequests` through that same table before it retries the call.
 */
export interface ElicitationHost {
  setRequestHandler(...args: never[]): unknown;
}

/**
 * Puts a check in front of the client's `elicitation/create` handler, now and whenever one is registered later.
 * Form mode only (URL mode and decline/cancel pass through; any other mode is refused to the server, -32602 with
 * `data.code` `unknown_mode`): the `requestedSchema` must be the spec's restricted
 * subset; on `accept`, missing fields take their defaults and the content is validated (formats asserted). A
 * failure reaches the server as -32602 with the issues, and the answer is not relayed. With the v2 client in the
 * 2026-07-28 era the same check runs on each MRTR elicitation: a failure rejects the call and no retry is sent.
 */
export function wrapElicitation(client: ElicitationHost, validator: ValidatorService): void {
  const guard =
    (handler: Handler): Handler =>
    async (request, extra) => {
      const params = request.params ?? {};
      refuseUnknownMode(params);
      if (elicitationMode(params).mode === 'url') return handler(request, extra);
      const schema = params.requestedSchema;
      const subset = checkElicitationSchema(schema);
      if (subset.status === 'refused') throw invalidParams(`Elicitation refused: ${subset.refusal.message}`, { code: subset.refusal.code });
      const result = (await handler(request, extra)) as { action?: unknown; content?: Record<string, unknown> };
      if (result?.action !== 'accept') return result;
      const content = { ...elicitationDefaults(schema), ...(result.content ?? {}) };
      let outcome: Awaited<ReturnType<ValidatorService['validateElicitation']>>;
      try {
        outcome = await validator.validateElicitation(schema, content);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'TIMEOUT') throw error;
        // That answer fails; the next one is checked again (a slow check is not the schema's fault by itself).
        throw invalidParams('Elicitation answer could not be checked in time; it was not sent', { code: 'timeout' });
      }
      if (outcome.status === 'refused')
        throw invalidParams(`Elicitation refused: ${outcome.refusal.message}`, { code: outcome.refusal.code });
      if (outcome.status === 'invalid') {
        throw invalidParams(`Elicitation answer does not match requestedSchema: ${formatIssues(outcome.issues)}`, {
          code: 'invalid_answer',
          issues: outcome.issues,
        });
      }
      return { ...result, content };
    };

  // A handler registered before the wrap sits in the protocol's table already (behind the SDK's own checks).
  const table = (client as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;

  const register = client.setRequestHandler.bind(client) as unknown as (schema: unknown, ...rest: unknown[]) => unknown;
  // v1: (schema, handler); v2: (method, handler) or (method, schemas, handler): the handler is the last argument.
  (client as unknown as { setRequestHandler: (schema: unknown, ...rest: unknown[]) => unknown }).setRequestHandler = (schema, ...rest) => {
    const last = rest.length - 1;
    const elicitation = isElicitation(schema) && typeof rest[last] === 'function';
    if (elicitation) rest[last] = guard(rest[last] as Handler);
    const registered = register(schema, ...rest);
    // The SDK's own parse runs before the guard and fails an unknown mode as an internal error (-32603, its
    // library's text): the mode is checked in front of it too, so the server hears -32602 naming the mode.
    const entry = elicitation ? table?.get('elicitation/create') : undefined;
    if (entry !== undefined) table?.set('elicitation/create', modeGate(entry));
    return registered;
  };

  const existing = table?.get('elicitation/create');
  if (table !== undefined && existing !== undefined) table.set('elicitation/create', guard(existing));
}

/** Refuses a request in a mode nobody knows before anything else reads it (see `elicitationMode`). */
const modeGate =
  (inner: Handler): Handler =>
  async (request, extra) => {
    refuseUnknownMode(request.params ?? {});
    return inner(request, extra);
  };

function refuseUnknownMode(params: Record<string, unknown>): void {
  const mode = elicitationMode(params);
  // Fail closed: a mode we do not know ("FORM") is neither checked nor shown to the user.
  if (mode.mode === 'unknown') throw invalidParams(`Elicitation refused: ${mode.message}`, { code: 'unknown_mode' });
}

function isElicitation(schema: unknown): boolean {
  // v2 names the method; v1 passes its zod ElicitRequestSchema, whose method literal says the same (no v1 import).
  if (schema === 'elicitation/create') return true;
  const method = (schema as { shape?: { method?: { value?: unknown } } })?.shape?.method?.value;
  return method === 'elicitation/create';
}

/**
 * Guards only the client's elicitation handler, for a client `withSchemaValidation` does not wrap: the v2
 * `@modelcontextprotocol/client` `Client`, whose 2026-07-28 MRTR rounds answer `inputRequests` through it.
 * Returns the same client.
 */
export function withElicitationValidation<C extends ElicitationHost>(client: C, options: { readonly validator: ValidatorService }): C {
  wrapElicitation(client, options.validator);
  return client;
}
