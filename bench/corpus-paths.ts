// Section 12a–c: the call paths of issue 21 over a whole corpus: a pass of valid calls (schemaval ÷ raw cfworker),
// validating by schema object ÷ by fingerprint (is anything hashed on the hot path), and explaining each tool's
// wrong call ÷ cfworker's full output (per tool: median and p90; and over a pass).
import type { Engine } from '../src/engine/index.ts';
import type { CorpusCall } from './corpus-calls.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, type HarnessOptions, measure } from './harness.ts';
import { formatSpreadOf, percentile, roundRatios, type Spread, spreadOf } from './spread.ts';

export interface CorpusPaths {
  /** engine.validateArguments over every valid call ÷ raw cfworker's default over the same calls, per round. */
  readonly validPass: Spread;
  /** engine.validate(schemaObject, valid) ÷ engine.validate(fingerprint, valid), one pass each, per round. */
  readonly objectOverPrint: Spread;
  /** validateArguments(wrong) ÷ cfworker shortCircuit=false(wrong), over a pass of every wrong call, per round. */
  readonly invalidPass: Spread;
  /** The same ratio per tool (the median of its rounds): median and p90 across tools, and how many tools. */
  readonly invalidPerTool: { readonly median: number; readonly p90: number; readonly tools: number; readonly worst: string };
  /** Per-call times of one pass, ns: schemaval valid, cfworker valid. */
  readonly passNs: { readonly schemaval: number; readonly cfworker: number };
}

/** Per tool: two tasks of microseconds each, so short warm-ups and a few rounds; tools × ~40 ms in all. */
const perToolOptions: HarnessOptions = { warmupMs: 5, batchMs: 2, budgetMs: 30, minRounds: 5, maxRounds: 9 };

/**
 * Measures the paths on `calls` (compiled on `engine`); `perToolEvery` takes one tool in that many for the per-tool
 * ratios (a 1,728-tool corpus in full would take a minute).
 */
export async function measureCorpusPaths(engine: Engine, calls: readonly CorpusCall[], perToolEvery = 1): Promise<CorpusPaths> {
  const options: HarnessOptions = { ...defaultHarnessOptions, budgetMs: 3_000 };
  const [schemaval, cfworker, byObject, byPrint] = await measure(
    [
      { name: 'schemaval valid pass', run: () => calls.map((call) => engine.validateArguments(call.tool, call.valid)) },
      { name: 'cfworker valid pass', run: () => calls.map((call) => call.short.validate(call.valid)) },
      { name: 'validate(schema object)', run: () => calls.map((call) => engine.validate(call.schema, call.valid)) },
      { name: 'validate(fingerprint)', run: () => calls.map((call) => engine.validate(call.print, call.valid)) },
    ],
    options,
  );
  const wrong = calls.filter((call) => call.wrong !== undefined);
  const [explained, full] = await measure(
    [
      { name: 'schemaval wrong pass', run: () => wrong.map((call) => engine.validateArguments(call.tool, call.wrong)) },
      { name: 'cfworker full wrong pass', run: () => wrong.map((call) => call.full.validate(call.wrong)) },
    ],
    options,
  );
  if (!schemaval || !cfworker || !byObject || !byPrint || !explained || !full) throw new Error('no measurement');

  const perTool: { name: string; ratio: number }[] = [];
  for (const [i, call] of wrong.entries()) {
    if (i % perToolEvery !== 0) continue;
    const [a, b] = await measure(
      [
        { name: 'schemaval', run: () => engine.validateArguments(call.tool, call.wrong) },
        { name: 'cfworker full', run: () => call.full.validate(call.wrong) },
      ],
      perToolOptions,
    );
    if (a && b) perTool.push({ name: call.name, ratio: spreadOf(roundRatios(a, b)).median });
  }
  const ratios = perTool.map((tool) => tool.ratio);
  const worst = perTool.reduce((w, tool) => (tool.ratio > w.ratio ? tool : w), { name: '', ratio: 0 });
  return {
    validPass: spreadOf(roundRatios(schemaval, cfworker)),
    objectOverPrint: spreadOf(roundRatios(byObject, byPrint)),
    invalidPass: spreadOf(roundRatios(explained, full)),
    invalidPerTool: {
      median: percentile(ratios, 50),
      p90: percentile(ratios, 90),
      tools: ratios.length,
      worst: `${worst.name} ${worst.ratio.toFixed(1)}x`,
    },
    passNs: { schemaval: schemaval.medianNs / calls.length, cfworker: cfworker.medianNs / calls.length },
  };
}

const x = (spread: Spread): string => `${formatSpreadOf(spread, (v) => v.toFixed(2))}x`;

export function corpusPathLines(paths: CorpusPaths): string[] {
  const { invalidPerTool: perTool } = paths;
  return [
    `   valid calls, a pass: schemaval validateArguments ${formatNs(paths.passNs.schemaval)} a call vs raw cfworker ` +
      `${formatNs(paths.passNs.cfworker)}: ${x(paths.validPass)} (min/median/max of per-round ratios)`,
    `   engine.validate(schema object) ÷ engine.validate(fingerprint), valid calls, a pass: ${x(paths.objectOverPrint)}`,
    `   wrong calls explained ÷ cfworker shortCircuit=false: a pass ${x(paths.invalidPass)}; per tool (${perTool.tools} tools) ` +
      `median ${perTool.median.toFixed(2)}x, p90 ${perTool.p90.toFixed(2)}x, worst ${perTool.worst}`,
  ];
}
