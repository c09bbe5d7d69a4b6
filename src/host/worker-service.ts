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
  const byFingerprint = async (fingerprint: string, request: WorkerRequest): Promise<unknown> => {
    try {
      return await client.send(request, () => tooSlow.mark(fingerprint));
    } catch (error) {
      const source = sources.get(fingerprint);
      if ((error as ValidatorError).code !== 'UNKNOWN_FINGERPRINT' || source === undefined) throw error;
      await client.send(source.kind === 'tool' ? { op: 'compileTools', tools: [source.tool] } : { op: 'compile', schema: source.schema });
      return client.send(request, () => tooSlow.mark(fingerprint));
    }
  };

  const validateSchema = async (
    schema: SchemaOrFingerprint,
    op: 'validate' | 'validateJson',
    payload: unknown,
  ): Promise<ValidationOutcome> => {
    const known =
      typeof schema === 'string' ? schema : typeof schema === 'object' && schema !== null ? fingerprintOf.get(schema) : undefined;
    if (tooSlow.has(schema) || (known !== undefined && tooSlow.has(known))) return tooSlow.refusal();
    const request = (ref: SchemaOrFingerprint): WorkerRequest =>
      op === 'validate' ? { op, schema: ref, instance: payload } : { op, schema: ref, text: payload as string };
    if (known !== undefined) {
      const answer = (await byFingerprint(known, request(known))) as { outcome: ValidationOutcome };
      return answer.outcome;
    }
    const answer = (await client.send(request(schema), () => tooSlow.mark(schema))) as { fingerprint: string; outcome: ValidationOutcome };
    if (typeof schema === 'object' && schema !== null && answer.fingerprint !== '') {
      fingerprintOf.set(schema, answer.fingerprint);
      remember(answer.fingerprint, { kind: 'schema', schema });
    }
    return answer.outcome;
  };

  const validateTool = async (
    fingerprint: string,
    op: 'validateArguments' | 'validateStructured',
    instance: unknown,
  ): Promise<ValidationOutcome> => {
    if (typeof fingerprint !== 'string') throw new ValidatorError('INVALID_ARGUMENT', `${op} wants a tool fingerprint`);
    if (tooSlow.has(fingerprint)) return tooSlow.refusal();
    return (await byFingerprint(fingerprint, { op, fingerprint, instance })) as ValidationOutcome;
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
