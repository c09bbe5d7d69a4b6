import type { EngineStats, Refused, ValidationOutcome } from '../../protocol/outcome.ts';
import type { Policy } from '../../protocol/policy.ts';
import type { ToolVerdict } from '../../protocol/tool.ts';
import { answerOutcome, splitElicitationAnswer } from '../forms/check-elicitation-schema.ts';
import { canonicalJson } from '../json/canonical-json.ts';
import { type HashText, hashText, toolCanonicalJson } from '../json/fingerprint.ts';
import { parseJson } from '../json/parse-json.ts';
import { resolvePolicy } from '../policy/policy.ts';
import type { FormatMode } from '../schema/schema-types.ts';
import type { SchemaValidatorAdapter } from '../schema/schema-validator-adapter.ts';
import { type CompiledTool, toolListRefusals, toolVerdict } from '../tools/compile-tool.ts';
import { type CompileResult, compileSchema } from './compile-schema.ts';
import { compiledWeight, toolWeight } from './compiled-weight.ts';
import { EngineError } from './engine-error.ts';
import { type HeldState, heldStateOf, stillHolds } from './held-schema.ts';
import { createLruCache, type LruHandle } from './lru-cache.ts';

export interface EngineOptions {
  readonly policy?: Partial<Policy>;
  /** The validator library: `createEngine` from src/engine/index.ts wires in cfworker's; the core has none. */
  readonly adapter?: SchemaValidatorAdapter;
  /** Compiled schemas and refusals kept in memory (docs/architecture.md#fingerprints-and-caches: 4,096). */
  readonly cacheSize?: number;
  /**
   * A bound on the heap compiled schemas hold, as `compiledWeight` estimates it (default 128 MiB): room for 4,096
   * typical tools, which retain about 90 MB once used (bench/cache-cost.ts --heap). Bounds the compiled-schema LRU and,
   * separately, the compiled-tool LRU. An isolate passes less (edge/src/http/isolate-engine.ts).
   */
  readonly maxCacheBytes?: number;
  /**
   * SHA-256 of a text as lowercase hex (default: @noble/hashes, which runs anywhere). The Node worker passes Node's
   * native one: a list of 10,000 tools hashes 10,000 texts, ~4.5 us each in JavaScript. workerd keeps the default
   * (node:crypto there needs `nodejs_compat`, and measured only ~30% faster).
   */
  readonly hashText?: HashText;
}

/** A schema, or the fingerprint of one compiled earlier. */
export type SchemaRef = string | object | boolean;

/**
 * The engine with its caches: compile once per fingerprint, validate many. Synchronous throughout (nothing in it
 * waits); operational failures throw an `EngineError`. Promises begin at the isolate boundary (`ValidatorService`).
 */
export interface Engine {
  readonly policy: Policy;
  readonly adapterId: string;
  /** Compiles a schema, or finds it (or its refusal) in the cache. */
  compile(schema: unknown, formats?: FormatMode): { readonly fingerprint: string; readonly result: CompileResult };
  /** Verdicts for a `tools/list` result's tools; keeps the compiled tools for the calls below. */
  compileTools(tools: readonly unknown[]): ToolVerdict[];
  validate(schema: SchemaRef, instance: unknown): ValidationOutcome;
  /** `validate` against a schema compiled earlier, named by its fingerprint (a cache lookup, never a compile). */
  validateCompiled(fingerprint: string, instance: unknown): ValidationOutcome;
  /** Parses the instance losslessly first, so integers past 2^53 stay exact. */
  validateJson(schema: SchemaRef, text: string): ValidationOutcome;
  validateArguments(toolFingerprint: string, args: unknown): ValidationOutcome;
  validateStructured(toolFingerprint: string, structuredContent: unknown): ValidationOutcome;
  /** Elicitation answers: the four form formats are asserted. */
  validateElicitation(requestedSchema: unknown, content: unknown): ValidationOutcome;
  stats(): EngineStats;
}

const defaultMaxCacheBytes = 128 * 1024 * 1024;

/** A cached tool's own cache entry and those of the schemas it holds, found by its fingerprint. */
interface HeldTool {
  readonly tool: LruHandle<string, CompiledTool>;
  /** Their keys are the schema cache keys the tool holds. */
  readonly schemas: readonly LruHandle<string, CompileResult>[];
}

/**
 * Creates an engine around the adapter it is given; I/O-free, so it runs the same in a page, a worker, Node or
 * workerd. Other layers use the default engine (src/engine/index.ts), which passes cfworker's adapter.
 */
export function createEngine(options: EngineOptions & { readonly adapter: SchemaValidatorAdapter }): Engine {
  const policy = resolvePolicy(options.policy);
  const adapter = options.adapter;
  const hash = options.hashText ?? hashText;
  const capacity = options.cacheSize ?? 4096;
  // A compiled schema is weighed once, here, however many cached tools share it: a tool's own entry counts only its
  // text and verdict (toolWeight). So that nothing retained goes unweighed, a schema leaving this cache takes the
  // tools that hold it along (`users`), and a tool is cached only while its schemas are.
  const users = new Map<string, Set<string>>();
  const schemas = createLruCache<string, CompileResult>(
    capacity,
    { maxWeight: options.maxCacheBytes ?? defaultMaxCacheBytes, weigh: compiledWeight },
    {
      onDrop: (key) => {
        const texts = users.get(key);
        if (texts === undefined) return;
        users.delete(key);
        for (const text of texts) tools.delete(text);
      },
    },
  );
  // Tools are kept by their canonical text: a tool seen before is found without hashing (V8 hashes a string key
  // natively and compares the text), so a repeated tools/list costs one canonical pass. A fingerprint leads to
  // handles on the tool's entry and its schemas' entries, so a call marks them used without looking them up.
  const byPrint = new Map<string, HeldTool>();
  const tools = createLruCache<string, CompiledTool>(
    capacity,
    { maxWeight: options.maxCacheBytes ?? defaultMaxCacheBytes, weigh: (tool, text) => toolWeight(tool) + text.length },
    {
      onDrop: (text, tool) => {
        for (const schema of byPrint.get(tool.fingerprint)?.schemas ?? []) users.get(schema.key)?.delete(text);
        byPrint.delete(tool.fingerprint);
      },
    },
  );
  const counters = { compiles: 0, cacheHits: 0, validations: 0 };
  // A schema object seen before is found by identity, so `validate(schemaObject, …)` and `validateElicitation` hash
  // nothing on a repeat: a deeply frozen one by a lookup alone, any other while it still reads as the snapshot taken
  // when it was hashed (held-schema.ts: one walk, a fraction of canonicalising and hashing, and of JSON.stringify
  // too), so a change made in place takes effect. The WeakMap holds nothing alive: an entry (the snapshot shares the
  // caller's strings) goes with the caller's object.
  const seenPrints = new WeakMap<object, { readonly state: HeldState; readonly print: string }>();

  const compileByFingerprint = (schema: unknown, print: string | undefined, formats: FormatMode): CompileResult => {
    if (print === undefined) return compileUnhashable(schema, formats);
    const key = cacheKey(print, formats);
    const cached = schemas.get(key);
    if (cached !== undefined) {
      counters.cacheHits++;
      return cached;
    }
    counters.compiles++;
    const result = compileSchema(schema, { policy, adapter, formats });
    schemas.set(key, result);
    return result;
  };

  /** No canonical form, so no cache entry: report the policy's own reason, else the missing canonical form. */
  const compileUnhashable = (schema: unknown, formats: FormatMode): CompileResult => {
    counters.compiles++;
    const result = compileSchema(schema, { policy, adapter, formats });
    if (result.status === 'refused') return result;
    return {
      status: 'refused',
      refusal: { code: 'invalid_schema', message: 'not canonical JSON (a string holds a lone UTF-16 surrogate)' },
    };
  };

  /** The schema's fingerprint: by identity for an object seen before (unchanged), else its canonical text hashed. */
  const schemaPrint = (schema: unknown): string | undefined => {
    if (typeof schema !== 'object' || schema === null) return hashedPrint(schema);
    const seen = seenPrints.get(schema);
    if (seen !== undefined && stillHolds(schema, seen.state)) return seen.print;
    // Taken before the canonical pass, as the JSON text was. A getter that answers differently from one read to the
    // next can still set the snapshot, the fingerprint and the compiled copy apart: only data holds still.
    const state = heldStateOf(schema);
    const print = hashedPrint(schema);
    if (print === undefined) return undefined;
    if (state !== undefined) seenPrints.set(schema, { state, print });
    return print;
  };
  const hashedPrint = (schema: unknown): string | undefined => {
    const text = safeCanonicalJson(schema);
    return text === undefined ? undefined : hash(text);
  };

  const compileNow = (schema: unknown, formats: FormatMode): { readonly fingerprint: string; readonly result: CompileResult } => {
    const print = schemaPrint(schema);
    return { fingerprint: print ?? '', result: compileByFingerprint(schema, print, formats) };
  };

  const compiled = (print: string, formats: FormatMode): CompileResult => {
    const cached = schemas.get(cacheKey(print, formats));
    if (cached === undefined) throw new EngineError('UNKNOWN_FINGERPRINT', `no schema with fingerprint ${print} is compiled here`);
    counters.cacheHits++;
    return cached;
  };

  const resolve = (ref: SchemaRef, formats: FormatMode): CompileResult =>
    typeof ref === 'string' ? compiled(ref, formats) : compileNow(ref, formats).result;

  const run = (result: CompileResult | null, instance: unknown): ValidationOutcome => {
    counters.validations++;
    if (result === null) return { status: 'valid' };
    if (result.status === 'refused') return result;
    return result.schema.validate(instance);
  };

  /** A tool in use keeps its schemas recently used too: a schema leaving the cache takes its tools with it. */
  const touchSchemasOf = (held: HeldTool | undefined): void => {
    if (held !== undefined) for (const handle of held.schemas) schemas.touch(handle);
  };

  const tool = (print: string): CompiledTool => {
    const held = byPrint.get(print);
    const found = held === undefined ? undefined : tools.touch(held.tool);
    if (found === undefined) throw new EngineError('UNKNOWN_FINGERPRINT', `no tool with fingerprint ${print} is compiled here`);
    touchSchemasOf(held);
    return found;
  };

  /** One canonical pass per schema: its text gives the schema's fingerprint and, assembled, the tool's. */
  const compileTool = (entry: unknown, i: number): ToolVerdict => {
    if (typeof entry !== 'object' || entry === null || typeof (entry as { name?: unknown }).name !== 'string') {
      const name = `tools[${i}]`;
      const message = `${name} is not a tool: want an object with a string "name"`;
      return {
        name,
        fingerprint: '',
        status: 'refused',
        input: { status: 'refused', refusal: { code: 'invalid_schema', message } },
        output: null,
        warnings: [],
      };
    }
    const { name, inputSchema, outputSchema } = entry as { name: string; inputSchema?: unknown; outputSchema?: unknown };
    const inputText = inputSchema === undefined ? undefined : safeCanonicalJson(inputSchema);
    const outputText = outputSchema === undefined ? undefined : safeCanonicalJson(outputSchema);
    const nameText = safeCanonicalJson(name);
    const hashable =
      nameText !== undefined &&
      (inputSchema === undefined) === (inputText === undefined) &&
      (outputSchema === undefined) === (outputText === undefined);
    const text = hashable ? toolCanonicalJson(nameText, inputText, outputText) : undefined;
    const known = text === undefined ? undefined : tools.get(text);
    if (known !== undefined) {
      // The tool holds its compiled schemas; they are only marked used, so the schema cache keeps them.
      touchSchemasOf(byPrint.get(known.fingerprint));
      counters.cacheHits += (known.input === null ? 0 : 1) + (known.output === null ? 0 : 1);
      return known.verdict;
    }
    const print = text === undefined ? '' : hash(text);
    const inputKey = inputText === undefined ? undefined : hash(inputText);
    const outputKey = outputText === undefined ? undefined : hash(outputText);
    const input = inputSchema === undefined ? null : compileByFingerprint(inputSchema, inputKey, 'annotate');
    const output = outputSchema === undefined ? null : compileByFingerprint(outputSchema, outputKey, 'annotate');
    const verdict = toolVerdict(name, print, input, output);
    const keys: string[] = [];
    if (inputKey !== undefined) keys.push(inputKey);
    if (outputKey !== undefined) keys.push(outputKey);
    // Cached only while the schema cache holds every schema the tool holds (a large output schema may have pushed
    // the input's out): otherwise the tool would keep alive what no cache weighs.
    let held = text !== undefined;
    for (const key of keys) if (schemas.peek(key) === undefined) held = false;
    if (held) {
      const at = text as string;
      tools.set(at, { name, fingerprint: print, input, output, verdict });
      const handle = tools.handle(at);
      if (handle !== undefined) {
        // Every key is cached (`held` above). Mapped, not pushed: a pushed array keeps room for 16 more per tool.
        byPrint.set(print, { tool: handle, schemas: keys.map((key) => schemas.handle(key) as LruHandle<string, CompileResult>) });
        for (const key of keys) {
          let texts = users.get(key);
          if (texts === undefined) {
            texts = new Set();
            users.set(key, texts);
          }
          texts.add(at);
        }
      }
    }
    return verdict;
  };

  const instanceLimits = { maxBytes: policy.maxInstanceBytes, maxDepth: policy.maxInstanceDepth };

  return {
    policy,
    adapterId: adapter.id,
    compile: (schema, formats = 'annotate') => compileNow(schema, formats),
    compileTools(list) {
      if (!Array.isArray(list)) throw new EngineError('INVALID_ARGUMENT', 'compileTools wants an array of tools');
      // The list's own verdicts first (malformed names, duplicates): such an entry is never compiled or cached.
      const forced = toolListRefusals(list);
      // Each schema's text is hashed as it comes, even when tools of the list share it: a map keyed by whole
      // canonical texts cost more (V8 hashes and flattens each long key) than the SHA-256 of the repeats it saved.
      return list.map((entry, i) => forced[i] ?? compileTool(entry, i));
    },
    validate(schema, instance) {
      return run(resolve(schema, 'annotate'), instance);
    },
    validateCompiled(print, instance) {
      return run(compiled(print, 'annotate'), instance);
    },
    validateJson(schema, text) {
      const result = resolve(schema, 'annotate');
      const parsed = parseJson(text, instanceLimits);
      if (!parsed.ok) {
        counters.validations++;
        if (result.status === 'refused') return result;
        const keyword = parsed.code === 'too_large' ? 'maxInstanceBytes' : parsed.code === 'too_deep' ? 'maxInstanceDepth' : 'json';
        const message = parsed.code === 'malformed' ? `not valid JSON: ${parsed.message}` : parsed.message;
        return { status: 'invalid', issues: [{ path: '$', keyword, message }] };
      }
      return run(result, parsed.value);
    },
    validateArguments(print, args) {
      const found = tool(print);
      return run(refusalOf(found) ?? found.input, args);
    },
    validateStructured(print, structuredContent) {
      const found = tool(print);
      return run(refusalOf(found) ?? found.output, structuredContent);
    },
    validateElicitation(requestedSchema, content) {
      // Fail closed: a key the form never asked for is an issue of its own, never forwarded (docs/policy.md).
      const { asked, unasked } = splitElicitationAnswer(requestedSchema, content);
      return answerOutcome(run(compileNow(requestedSchema, 'assert-form').result, asked), unasked, policy.maxIssues);
    },
    stats() {
      return { cachedSchemas: schemas.size, cachedTools: tools.size, ...counters };
    },
  };
}

/**
 * A compiled schema's key in this engine's cache (one policy, one adapter): the fingerprint alone for tool schemas,
 * so a validation by fingerprint builds no string; elicitation schemas, compiled with formats asserted, apart.
 */
function cacheKey(print: string, formats: FormatMode): string {
  return formats === 'annotate' ? print : `${print}|${formats}`;
}

/** A refused tool is refused for every check, whichever of its schemas was refused. */
function refusalOf(tool: CompiledTool): Refused | undefined {
  // On every call, so no array to search.
  if (tool.input !== null && tool.input.status === 'refused') return tool.input;
  if (tool.output !== null && tool.output.status === 'refused') return tool.output;
  return undefined;
}

/** The canonical JSON text, or undefined when the value has none (too deep to walk, lone surrogates). */
function safeCanonicalJson(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}
