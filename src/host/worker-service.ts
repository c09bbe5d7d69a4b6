import type { EngineStats, ValidationOutcome } from '../protocol/outcome.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import type { CompiledSchemaInfo, SchemaOrFingerprint, ValidatorService, WorkerRequest } from '../protocol/validator-service.ts';
import { createTooSlowRegistry } from './too-slow.ts';
import { ValidatorError } from './validator-error.ts';
import type { WorkerClient } from './worker-client.ts';

/** What a schema or tool fingerprint was made from, so it can be sent again to a fresh worker. */
type Source = { readonly kind: 'schema'; readonly schema: unknown } | { readonly kind: 'tool'; readonly tool: unknown };

/**
 * The `ValidatorService` on the host side of a worker. Schemas and tools cross once and are referred to by
 * fingerprint afterwards; when a fresh worker does not know a fingerprint (after a restart, or its LRU evicted
 * it), the source is sent again and the call retried once. A schema whose validation overran the budget is
 * answered `too_slow` from then on, without a call.
 */
export function createWorkerService(client: WorkerClient, timeBudgetMs: number, capacity = 4096): ValidatorService {
  const tooSlow = createTooSlowRegistry(timeBudgetMs);
  const sources = new Map<string, Source>();
  const fingerprintOf = new WeakMap<object, string>();

  const remember = (fingerprint: string, source: Source): void => {
    if (fingerprint === '') return;
    sources.delete(fingerprint);
    sources.set(fingerprint, source);
    if (sources.size > capacity) sources.delete(sources.keys().next().value as string);
  };

  /** Sends a request that names a fingerprint; re-teaches the worker once if it has forgotten it. */
  const byFingerprint = (fingerprint: string, request: WorkerRequest): Promise<unknown> =>
    // Promise chains rather than async functions: this is every call's path, and each async layer costs ticks.
    client
      .send(request, () => tooSlow.mark(fingerprint))
      .catch((error: unknown) => {
        const source = sources.get(fingerprint);
        if ((error as ValidatorError).code !== 'UNKNOWN_FINGERPRINT' || source === undefined) throw error;
        return client
          .send(source.kind === 'tool' ? { op: 'compileTools', tools: [source.tool] } : { op: 'compile', schema: source.schema })
          .then(() => client.send(request, () => tooSlow.mark(fingerprint)));
      });

  const validateSchema = async (
    schema: SchemaOrFingerprint,
    op: 'validate' | 'validateJson',
    payload: unknown,
  ): Promise<ValidationOutcome> => {
    const known =
      typeof schema === 'string' ? schema : typeof schema === 'object' && schema !== null ? fingerprintOf.get(schema) : undefined;
    if (tooSlow.has(schema) || (known !== undefined && tooSlow.has(known))) return tooSlow.refusal();
    if (known !== undefined) {
      const answer = (await byFingerprint(known, validationRequest(op, known, payload))) as { outcome: ValidationOutcome };
      return answer.outcome;
    }
    const answer = (await client.send(validationRequest(op, schema, payload), () => tooSlow.mark(schema))) as {
      fingerprint: string;
      outcome: ValidationOutcome;
    };
    if (typeof schema === 'object' && schema !== null && answer.fingerprint !== '') {
      fingerprintOf.set(schema, answer.fingerprint);
      remember(answer.fingerprint, { kind: 'schema', schema });
    }
    return answer.outcome;
  };

  const validateTool = (
    fingerprint: string,
    op: 'validateArguments' | 'validateStructured',
    instance: unknown,
  ): Promise<ValidationOutcome> => {
    if (typeof fingerprint !== 'string') return Promise.reject(new ValidatorError('INVALID_ARGUMENT', `${op} wants a tool fingerprint`));
    if (tooSlow.has(fingerprint)) return Promise.resolve(tooSlow.refusal());
    return byFingerprint(fingerprint, { op, fingerprint, instance }) as Promise<ValidationOutcome>;
  };

  return {
    async compileTools(tools) {
      if (!Array.isArray(tools)) throw new ValidatorError('INVALID_ARGUMENT', 'compileTools wants an array of tools');
      const verdicts = (await client.send({ op: 'compileTools', tools })) as ToolVerdict[];
      return verdicts.map((verdict, i) => {
        remember(verdict.fingerprint, { kind: 'tool', tool: tools[i] });
        if (!tooSlow.has(verdict.fingerprint)) return verdict;
        const refusal = tooSlow.refusal() as { refused: { code: 'too_slow'; message: string } };
        return { ...verdict, verdict: 'refused', input: { ok: false, ...refusal.refused } };
      });
    },
    async compile(schema) {
      const info = (await client.send({ op: 'compile', schema })) as CompiledSchemaInfo;
      if (typeof schema === 'object' && schema !== null && info.fingerprint !== '') fingerprintOf.set(schema, info.fingerprint);
      remember(info.fingerprint, { kind: 'schema', schema });
      if (tooSlow.has(info.fingerprint))
        return { ...info, refusal: (tooSlow.refusal() as { refused: CompiledSchemaInfo['refusal'] }).refused };
      return info;
    },
    validateArguments: (fingerprint, args) => validateTool(fingerprint, 'validateArguments', args),
    validateStructured: (fingerprint, structuredContent) => validateTool(fingerprint, 'validateStructured', structuredContent),
    async validateElicitation(requestedSchema, content) {
      if (tooSlow.has(requestedSchema)) return tooSlow.refusal();
      return (await client.send({ op: 'validateElicitation', schema: requestedSchema, instance: content }, () =>
        tooSlow.mark(requestedSchema),
      )) as ValidationOutcome;
    },
    validate: (schema, instance) => validateSchema(schema, 'validate', instance),
    validateJson: (schema, text) => validateSchema(schema, 'validateJson', text),
    async stats() {
      return (await client.send({ op: 'stats' })) as EngineStats;
    },
  };
}

function validationRequest(op: 'validate' | 'validateJson', schema: SchemaOrFingerprint, payload: unknown): WorkerRequest {
  return op === 'validate' ? { op, schema, instance: payload } : { op, schema, text: payload as string };
}
