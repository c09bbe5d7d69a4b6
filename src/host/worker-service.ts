import { createLruCache, type HeldState, heldStateOf, stillHolds } from '../engine/core/index.ts';
import { fingerprint, toolFingerprint } from '../engine/json/index.ts';
import { toolListRefusals } from '../engine/tools/index.ts';
import type { EngineStats, ValidationOutcome } from '../protocol/outcome.ts';
import type { Refusal } from '../protocol/refusal.ts';
import type { SchemaVerdict, ToolVerdict } from '../protocol/tool.ts';
import type { CompiledSchemaInfo, SchemaOrFingerprint, ValidatorService, WorkerRequest } from '../protocol/validator-service.ts';
import { createTooSlowRegistry } from './too-slow.ts';
import { ValidatorError } from './validator-error.ts';
import type { WorkerClient } from './worker-client.ts';

/** A schema object's fingerprint as the worker answered it, and what the object held when it was posted. */
interface KnownSchema {
  readonly fingerprint: string;
  readonly state: HeldState;
}

/**
 * Watches one request that carries a schema object: each time it is posted (the structured clone reads the object
 * then, not when the caller asked, and a request is posted again to a fresh worker), what the object holds.
 */
interface PostWatch {
  readonly onPosted: () => void;
  /** What to remember for the fingerprint the worker answered; undefined when the request never left. */
  readonly known: (fingerprint: string) => KnownSchema | undefined;
}

function watchPosted(schema: object): PostWatch {
  let posted: HeldState | undefined;
  return {
    onPosted: () => {
      posted = heldStateOf(schema);
    },
    known: (fingerprint) => (posted === undefined || fingerprint === '' ? undefined : { fingerprint, state: posted }),
  };
}

/** What a schema or tool fingerprint was made from, so it can be sent again to a fresh worker. */
type Source = { readonly kind: 'schema'; readonly schema: unknown } | { readonly kind: 'tool'; readonly tool: unknown };

export interface WorkerServiceOptions {
  readonly timeBudgetMs: number;
  readonly compileBudgetMs: number;
  /** Sources remembered for re-teaching a fresh worker (LRU). */
  readonly capacity?: number;
}

/**
 * The `ValidatorService` on the host side of a worker. Schemas and tools cross once and are referred to by
 * fingerprint afterwards; when a fresh worker does not know a fingerprint (after a restart, or its LRU evicted
 * it), the source is sent again and the call retried once. `compileTools` judges the list's own refusals here, on
 * the whole list (`toolListRefusals`), and sends each tool they leave as its own request, so each has its own
 * compile budget and a tool whose compile overruns it is refused `too_slow` alone. A validation
 * that overruns its budget fails that call (`TIMEOUT`); the schema is refused only when it keeps doing so
 * (`too-slow.ts`).
 */
export function createWorkerService(client: WorkerClient, options: WorkerServiceOptions): ValidatorService {
  const capacity = options.capacity ?? 4096;
  const tooSlow = createTooSlowRegistry(options.timeBudgetMs, options.compileBudgetMs);
  const sources = createLruCache<string, Source>(capacity);
  // A schema object is named by its fingerprint only while it still holds what was posted (or is deeply frozen):
  // the caller may change it in place, and the next call must see the change, as the engine's own calls do.
  const fingerprintOf = new WeakMap<object, KnownSchema>();
  const knownPrint = (schema: object): string | undefined => {
    const known = fingerprintOf.get(schema);
    if (known === undefined) return undefined;
    return stillHolds(schema, known.state) ? known.fingerprint : undefined;
  };
  /** Learns a schema object's fingerprint from the answer to a request `watch` saw posted. */
  const learn = (schema: unknown, watch: PostWatch | undefined, fingerprint: string): void => {
    const known = watch?.known(fingerprint);
    if (typeof schema === 'object' && schema !== null && known !== undefined) fingerprintOf.set(schema, known);
  };
  const watchOf = (schema: unknown): PostWatch | undefined =>
    typeof schema === 'object' && schema !== null ? watchPosted(schema) : undefined;
  /** Names of tools refused for a slow compile, so a page only hashes the tools that share such a name. */
  const slowToolNames = new Set<string>();

  const remember = (fingerprint: string, source: Source): void => {
    if (fingerprint !== '') sources.set(fingerprint, source);
  };

  /** Sends a validation that names a fingerprint; re-teaches the worker once if it has forgotten it. */
  const byFingerprint = (fingerprint: string, request: WorkerRequest): Promise<unknown> => {
    const blame = (): void => void tooSlow.validationTimedOut(fingerprint);
    // Promise chains rather than async functions: this is every call's path, and each async layer costs ticks.
    return client.send(request, blame).then(
      (answer) => {
        if (tooSlow.streaking(fingerprint)) tooSlow.finished(fingerprint);
        return answer;
      },
      (error: unknown) => {
        const source = sources.peek(fingerprint);
        if ((error as ValidatorError).code !== 'UNKNOWN_FINGERPRINT' || source === undefined) throw error;
        const teach: Promise<unknown> =
          source.kind === 'tool' ? compileTool(source.tool) : compileSchema(source.schema, { op: 'compile', schema: source.schema });
        return teach.then(() => {
          // Its compile overran the budget this time: refused now, nothing left to ask the worker.
          const refusal = tooSlow.refusal(fingerprint);
          if (refusal !== undefined) return refusedAnswer(request, refusal);
          return client.send(request, blame).then((answer) => {
            tooSlow.finished(fingerprint);
            return answer;
          });
        });
      },
    );
  };

  /** A validation that compiles its schema object first: a timeout is blamed like a validation's (either could be slow). */
  const withSchemaObject = (schema: unknown, request: WorkerRequest, watch?: PostWatch): Promise<unknown> =>
    client
      .send(request, () => void tooSlow.validationTimedOut(schema), watch?.onPosted)
      .then((answer) => {
        tooSlow.finished(schema);
        return answer;
      });

  /** One tool, one request, one compile budget. A compile that overruns it refuses the tool (`too_slow`). */
  const compileTool = (tool: unknown): Promise<ToolVerdict> => {
    let timedOut = false;
    return client
      .send({ op: 'compileTools', tools: [tool] }, () => {
        timedOut = true;
      })
      .then(
        (verdicts) => (verdicts as ToolVerdict[])[0] as ToolVerdict,
        async (error: unknown) => {
          if (!timedOut) throw error;
          const print = orEmpty(() => toolFingerprint(tool as { name: unknown }));
          tooSlow.compileTimedOut(print);
          slowToolNames.add((tool as { name: string }).name);
          return slowVerdict(tool as NamedTool, print, tooSlow.refusal(print));
        },
      );
  };

  /** A compile request for a schema object; a timeout refuses the schema (`too_slow`) rather than rejecting. */
  const compileSchema = async (schema: unknown, request: WorkerRequest, watch?: PostWatch): Promise<CompiledSchemaInfo> => {
    let timedOut = false;
    try {
      return (await client.send(
        request,
        () => {
          timedOut = true;
        },
        watch?.onPosted,
      )) as CompiledSchemaInfo;
    } catch (error) {
      if (!timedOut) throw error;
      const print = orEmpty(() => fingerprint(schema));
      tooSlow.compileTimedOut(print);
      tooSlow.compileTimedOut(schema);
      // Refused whatever the schema is: the registry keys only objects and fingerprints, and a schema may have neither.
      const refusal = tooSlow.refusal(schema) ?? tooSlow.refusal(print) ?? slowCompile(options.compileBudgetMs);
      return { status: 'refused', refusal, fingerprint: print, warnings: [] };
    }
  };

  /** The verdict a tool refused for a slow compile had, without asking the worker again; undefined otherwise. */
  const knownSlow = (tool: NamedTool): ToolVerdict | undefined => {
    const print = orEmpty(() => toolFingerprint(tool));
    const refusal = tooSlow.refusal(print);
    return refusal === undefined ? undefined : slowVerdict(tool, print, refusal);
  };

  const validateSchema = (schema: SchemaOrFingerprint, op: 'validate' | 'validateJson', payload: unknown): Promise<ValidationOutcome> => {
    const known = typeof schema === 'string' ? schema : typeof schema === 'object' && schema !== null ? knownPrint(schema) : undefined;
    const refusal = tooSlow.refusal(schema) ?? (known === undefined ? undefined : tooSlow.refusal(known));
    if (refusal !== undefined) return Promise.resolve({ status: 'refused', refusal });
    if (known !== undefined) {
      return byFingerprint(known, validationRequest(op, known, payload)).then(
        (answer) => (answer as { outcome: ValidationOutcome }).outcome,
      );
    }
    const watch = watchOf(schema);
    return withSchemaObject(schema, validationRequest(op, schema, payload), watch).then((answer) => {
      const { fingerprint, outcome } = answer as { fingerprint: string; outcome: ValidationOutcome };
      if (typeof schema === 'object' && schema !== null && fingerprint !== '') {
        learn(schema, watch, fingerprint);
        remember(fingerprint, { kind: 'schema', schema });
      }
      return outcome;
    });
  };

  const validateTool = (
    fingerprint: string,
    op: 'validateArguments' | 'validateStructured',
    instance: unknown,
  ): Promise<ValidationOutcome> => {
    if (typeof fingerprint !== 'string') return Promise.reject(new ValidatorError('INVALID_ARGUMENT', `${op} wants a tool fingerprint`));
    const refusal = tooSlow.refusal(fingerprint);
    if (refusal !== undefined) return Promise.resolve({ status: 'refused', refusal });
    return byFingerprint(fingerprint, { op, fingerprint, instance }) as Promise<ValidationOutcome>;
  };

  return {
    async compileTools(tools) {
      if (!Array.isArray(tools)) throw new ValidatorError('INVALID_ARGUMENT', 'compileTools wants an array of tools');
      // The list's own verdicts (malformed entries, names, duplicates), judged here on the whole list, once, as the
      // engine's compileTools does: each tool crosses alone, and the worker would see a list of one.
      const forced = toolListRefusals(tools);
      // Sent in the same tick, the requests travel together (one message per 256) but are budgeted one by one.
      const verdicts = await Promise.all(
        tools.map((tool: unknown, i): ToolVerdict | Promise<ToolVerdict> => {
          const verdict = forced[i];
          if (verdict !== undefined) return verdict;
          const named = tool as NamedTool;
          if (!slowToolNames.has(named.name)) return compileTool(tool);
          return knownSlow(named) ?? compileTool(tool);
        }),
      );
      return verdicts.map((verdict, i) => {
        // A verdict on the list, not on a compiled definition: nothing to re-teach a worker.
        if (forced[i] !== undefined) return verdict;
        remember(verdict.fingerprint, { kind: 'tool', tool: tools[i] });
        const refusal = tooSlow.refusal(verdict.fingerprint);
        if (refusal === undefined || verdict.status === 'refused') return verdict;
        // Validations against it kept overrunning the budget since it was compiled.
        return { ...verdict, status: 'refused', input: { status: 'refused', refusal } };
      });
    },
    async compile(schema) {
      const watch = watchOf(schema);
      const info = await compileSchema(schema, { op: 'compile', schema }, watch);
      learn(schema, watch, info.fingerprint);
      remember(info.fingerprint, { kind: 'schema', schema });
      const refusal = tooSlow.refusal(info.fingerprint);
      if (refusal !== undefined && info.status === 'accepted') return { ...info, status: 'refused', refusal };
      return info;
    },
    validateArguments: (fingerprint, args) => validateTool(fingerprint, 'validateArguments', args),
    validateStructured: (fingerprint, structuredContent) => validateTool(fingerprint, 'validateStructured', structuredContent),
    async validateElicitation(requestedSchema, content) {
      const refusal = tooSlow.refusal(requestedSchema);
      if (refusal !== undefined) return { status: 'refused', refusal };
      if (typeof requestedSchema !== 'object' || requestedSchema === null)
        return (await client.send({ op: 'validateElicitation', schema: requestedSchema, instance: content })) as ValidationOutcome;
      return (await withSchemaObject(requestedSchema, {
        op: 'validateElicitation',
        schema: requestedSchema,
        instance: content,
      })) as ValidationOutcome;
    },
    validate: (schema, instance) => validateSchema(schema, 'validate', instance),
    validateJson: (schema, text) => validateSchema(schema, 'validateJson', text),
    async stats() {
      return (await client.send({ op: 'stats' })) as EngineStats;
    },
  };
}

interface NamedTool {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

/** The verdict on a tool whose compile overran its budget: each schema it has is refused `too_slow`. */
function slowVerdict(tool: NamedTool, print: string, refusal: Refusal | undefined): ToolVerdict {
  const side: SchemaVerdict = {
    status: 'refused',
    refusal: { code: 'too_slow', message: refusal?.message ?? 'compiling this tool ran past its budget' },
  };
  return {
    name: tool.name,
    fingerprint: print,
    status: 'refused',
    input: tool.inputSchema !== undefined || tool.outputSchema === undefined ? side : null,
    output: tool.outputSchema !== undefined ? side : null,
    warnings: [],
  };
}

/** What a validation request answers when its schema turned out to be refused before it could be sent. */
function refusedAnswer(request: WorkerRequest, refusal: Refusal): unknown {
  const outcome: ValidationOutcome = { status: 'refused', refusal };
  return request.op === 'validate' || request.op === 'validateJson' ? { fingerprint: request.schema, outcome } : outcome;
}

function validationRequest(op: 'validate' | 'validateJson', schema: SchemaOrFingerprint, payload: unknown): WorkerRequest {
  return op === 'validate' ? { op, schema, instance: payload } : { op, schema, text: payload as string };
}

/** What `compileTimedOut` refuses a schema with, for a schema the registry cannot key. */
function slowCompile(compileBudgetMs: number): Refusal {
  return { code: 'too_slow', message: `compiling ran past its ${compileBudgetMs} ms budget; it is refused from now on` };
}

/** A fingerprint, or `''` for a value with no canonical form (the engine's convention for "none"). */
function orEmpty(print: () => string): string {
  try {
    return print();
  } catch {
    return '';
  }
}
