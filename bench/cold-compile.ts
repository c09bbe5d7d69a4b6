// Section 12h: cold compile of a whole corpus. Each run a fresh engine compiles every tool (policy pass, copy,
// fingerprints, cfworker's construction) against raw cfworker constructing a validator for every schema from a copy
// (it stamps what it is given); the two alternate, and the first run of each only warms the JIT.
import { Validator } from '@cfworker/json-schema';
import { createEngine, type HashText } from '../src/engine/index.ts';
import type { CorpusTool } from './corpus.ts';
import { cfworkerDraft } from './real-corpus.ts';
import { type Spread, spreadOf } from './spread.ts';

export interface ColdCompile {
  /** Fresh-engine compileTools ÷ raw cfworker, per run. */
  readonly ratio: Spread;
  readonly schemavalMs: Spread;
  readonly cfworkerMs: Spread;
  readonly schemas: number;
  readonly runs: number;
}

export function measureColdCompile(tools: readonly CorpusTool[], runs = 5, hashText?: HashText): ColdCompile {
  const schemas = tools.flatMap((tool) => (tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema]));
  const drafts = schemas.map(cfworkerDraft);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run <= runs; run++) {
    // A fresh parse each run, as a host holds a new tools/list answer; not timed.
    const list = JSON.parse(JSON.stringify(tools)) as unknown[];
    const engine = createEngine(hashText === undefined ? {} : { hashText });
    let started = performance.now();
    engine.compileTools(list);
    const schemavalMs = performance.now() - started;
    started = performance.now();
    for (const [i, schema] of schemas.entries()) new Validator(structuredClone(schema), drafts[i], true);
    const cfworkerMs = performance.now() - started;
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
