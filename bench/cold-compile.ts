// Section 12h: cold compile of a whole corpus. Each time a fresh engine compiles every tool (policy pass, copy,
// fingerprints, cfworker's construction) against raw cfworker constructing a validator for every schema from a copy
// (it stamps what it is given); the two alternate, `coldPerRound` compiles a round, and the first round only warms the JIT.
// The engine is passed in: the compiled one of dist/ (as installed), or the sources under tsx.
import { Validator } from '@cfworker/json-schema';
import { createEngine, type HashText } from '../src/engine/index.ts';
import type { CorpusTool } from './corpus.ts';
import { cfworkerDraft } from './real-corpus.ts';
import { type Spread, spreadOf } from './spread.ts';

export interface ColdCompile {
  /** Fresh-engine compileTools ÷ raw cfworker, per round. */
  readonly ratio: Spread;
  readonly schemavalMs: Spread;
  readonly cfworkerMs: Spread;
  readonly schemas: number;
  readonly runs: number;
}

/**
 * Compiles per timed round, on each side. One compile of the real corpus takes ~15 ms (cfworker's ~6 ms), so one
 * garbage collection moved a round of one compile anywhere from 0.8x to 5.3x; with four a round, each side's rounds
 * hold the collections it causes: 1.7–3.3x in three runs (median 2.1x, from 2.55–2.66x). The generated corpus,
 * ~120 ms a compile, spread about as before either way.
 */
export const coldPerRound = 4;

export function measureColdCompile(
  tools: readonly CorpusTool[],
  runs = 5,
  hashText?: HashText,
  engineOf: typeof createEngine = createEngine,
): ColdCompile {
  const schemas = tools.flatMap((tool) => (tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema]));
  const drafts = schemas.map(cfworkerDraft);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run <= runs; run++) {
    // A fresh parse before each compile, as a host holds a new tools/list answer; not timed, and one held at a time.
    let schemavalMs = 0;
    for (let k = 0; k < coldPerRound; k++) {
      const list = JSON.parse(JSON.stringify(tools)) as unknown[];
      const started = performance.now();
      engineOf(hashText === undefined ? {} : { hashText }).compileTools(list);
      schemavalMs += (performance.now() - started) / coldPerRound;
    }
    const started = performance.now();
    for (let k = 0; k < coldPerRound; k++)
      for (const [i, schema] of schemas.entries()) new Validator(structuredClone(schema), drafts[i], true);
    const cfworkerMs = (performance.now() - started) / coldPerRound;
    if (run === 0) continue;
    ours.push(schemavalMs);
    theirs.push(cfworkerMs);
  }
  return {
    ratio: spreadOf(ours.map((ms, i) => ms / (theirs[i] as number))),
    schemavalMs: spreadOf(ours),
    cfworkerMs: spreadOf(theirs),
    schemas: schemas.length,
    runs,
  };
}
