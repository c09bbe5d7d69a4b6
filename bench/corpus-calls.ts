// A corpus made ready to call: each admitted tool with its fingerprints, raw cfworker validators for its input schema
// and a valid and a wrong call (bench/sample-instance.ts) that the engine and cfworker both judge as meant.
import { Validator } from '@cfworker/json-schema';
import type { Engine } from '../src/engine/index.ts';
import type { CorpusTool } from './corpus.ts';
import { cfworkerDraft } from './real-corpus.ts';
import { sampleValid, sampleWrong } from './sample-instance.ts';

export interface CorpusCall {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** The tool's fingerprint, for `validateArguments`. */
  readonly tool: string;
  /** The input schema's fingerprint, for `engine.validate(fingerprint, …)`. */
  readonly print: string;
  /** cfworker's default (shortCircuit) and its full output, each on its own copy (it stamps what it indexes). */
  readonly short: Validator;
  readonly full: Validator;
  readonly valid: unknown;
  /** Undefined when no wrong call could be made (a schema that takes anything). */
  readonly wrong: unknown;
}

export interface CorpusCalls {
  readonly calls: readonly CorpusCall[];
  readonly tools: number;
  /** Tools the engine refused (the reviewed refusals of the real corpus). */
  readonly refused: number;
  /** Admitted tools left out: no sampled call both validators call valid. */
  readonly unsampled: number;
}

const isValid = (engine: Engine, tool: string, instance: unknown): boolean => engine.validateArguments(tool, instance).status === 'valid';

/** Compiles the tools on `engine` and prepares a call for each admitted tool it can sample. */
export function prepareCalls(tools: readonly CorpusTool[], engine: Engine): CorpusCalls {
  const verdicts = engine.compileTools(tools);
  const calls: CorpusCall[] = [];
  let refused = 0;
  let unsampled = 0;
  for (const [i, verdict] of verdicts.entries()) {
    const tool = tools[i] as CorpusTool;
    if (verdict.status !== 'accepted') {
      refused++;
      continue;
    }
    const draft = cfworkerDraft(tool.inputSchema);
    const short = new Validator(structuredClone(tool.inputSchema), draft, true);
    const full = new Validator(structuredClone(tool.inputSchema), draft, false);
    let valid: unknown;
    for (let variant = 0; variant < 4 && valid === undefined; variant++) {
      const candidate = sampleValid(tool.inputSchema, variant);
      if (isValid(engine, verdict.fingerprint, candidate) && short.validate(candidate).valid) valid = candidate;
    }
    if (valid === undefined) {
      unsampled++;
      continue;
    }
    const candidate = sampleWrong(tool.inputSchema, valid);
    const wrong = !isValid(engine, verdict.fingerprint, candidate) && !full.validate(candidate).valid ? candidate : undefined;
    const { fingerprint: print } = engine.compile(tool.inputSchema);
    calls.push({ name: tool.name, schema: tool.inputSchema, tool: verdict.fingerprint, print, short, full, valid, wrong });
  }
  return { calls, tools: tools.length, refused, unsampled };
}
