// Section 11a: getting validators for every tool of the corpus. Raw cfworker constructs each schema cold (from a
// copy, since it stamps the schema it is given); schemaval's compileTools runs warm, every schema already compiled,
// once on the same objects and once on a fresh parse of the tools/list JSON (what a host holds after a refresh).
import { Validator } from '@cfworker/json-schema';
import type { Engine } from '../src/engine/index.ts';
import type { CorpusTool } from './corpus.ts';
import type { CfworkerDraft } from './fixtures.ts';
import { type HarnessOptions, type Measurement, measure, pairedDifference, pairedRatio } from './harness.ts';

export interface CorpusCompile {
  readonly cfworker: Measurement;
  readonly clone: Measurement;
  readonly warm: Measurement;
  readonly warmParsed: Measurement;
  readonly parse: Measurement;
  /** One cold compileTools of the whole corpus on a fresh engine, in ms. */
  readonly coldMs: number;
}

/** Each task takes 0.1–1 s: a short warm-up, batches of one operation, a handful of rounds. */
const corpusOptions: HarnessOptions = { warmupMs: 400, batchMs: 1, budgetMs: 6_000, minRounds: 5, maxRounds: 9 };

const draftOf = (schema: Record<string, unknown>): CfworkerDraft =>
  typeof schema.$schema === 'string' && schema.$schema.includes('draft-07') ? '7' : '2020-12';

function schemasOf(tools: readonly CorpusTool[]): Record<string, unknown>[] {
  return tools.flatMap((tool) => (tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema]));
}

/** Measures the corpus on `engine` (compiled cold first, timed once) against raw cfworker. */
export async function measureCorpusCompile(tools: readonly CorpusTool[], engine: Engine): Promise<CorpusCompile> {
  const started = performance.now();
  const verdicts = await engine.compileTools(tools);
  const coldMs = performance.now() - started;
  const refused = verdicts.filter((verdict) => verdict.status !== 'accepted');
  if (refused.length > 0) throw new Error(`the engine refused ${refused.length} corpus tools, e.g. ${JSON.stringify(refused[0])}`);
  const schemas = schemasOf(tools);
  const drafts = schemas.map(draftOf);
  const text = JSON.stringify(tools);
  const [cfworker, clone, warm, warmParsed, parse] = await measure(
    [
      {
        name: 'cfworker cold',
        run: () => schemas.map((schema, i) => new Validator(structuredClone(schema), drafts[i], true)),
      },
      { name: 'clone', run: () => schemas.map((schema) => structuredClone(schema)) },
      { name: 'compileTools warm', async: true, run: () => engine.compileTools(tools) },
      { name: 'compileTools warm, parsed', async: true, run: () => engine.compileTools(JSON.parse(text) as unknown[]) },
      { name: 'parse', run: () => JSON.parse(text) },
    ],
    corpusOptions,
  );
  return {
    cfworker: cfworker as Measurement,
    clone: clone as Measurement,
    warm: warm as Measurement,
    warmParsed: warmParsed as Measurement,
    parse: parse as Measurement,
    coldMs,
  };
}

/** Warm compileTools on the same objects over cfworker's cold construction (copies included). */
export const warmCompileRatio = (result: CorpusCompile): number => pairedRatio(result.warm, result.cfworker);

/** Lines for the report: each row's median and its ratio to cfworker cold. */
export function corpusCompileLines(result: CorpusCompile, tools: readonly CorpusTool[]): string[] {
  const ms = (ns: number): string => `${(ns / 1e6).toFixed(1).padStart(7)} ms`;
  const schemas = schemasOf(tools).length;
  const parsedNs = pairedDifference(result.warmParsed, result.parse);
  const cfworkerBareNs = pairedDifference(result.cfworker, result.clone);
  return [
    `raw cfworker, new Validator(structuredClone(s)) for all ${schemas} schemas   ${ms(result.cfworker.medianNs)}  1.00x`,
    `  of which structuredClone                                       ${ms(result.clone.medianNs)}  (cfworker alone ${ms(cfworkerBareNs).trim()})`,
    `schemaval compileTools(all ${tools.length} tools), cold, fresh engine            ${ms(result.coldMs * 1e6)}  (once)`,
    `schemaval compileTools, warm, same objects                       ${ms(result.warm.medianNs)}  ${warmCompileRatio(result).toFixed(2)}x`,
    `schemaval compileTools, warm, JSON.parse(tools/list) each time   ${ms(parsedNs)}  ${(parsedNs / result.cfworker.medianNs).toFixed(2)}x  (parse of ${ms(result.parse.medianNs).trim()} subtracted)`,
  ];
}
