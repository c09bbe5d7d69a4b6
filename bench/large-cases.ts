// Section 12d–f: issue 21's single-schema cases. On a large schema: validating by schema object ÷ by fingerprint
// (a cheap call, so a per-call hash would show) and one wrong leaf explained ÷ cfworker's full output; and 186 KB of
// all-wrong 26-property objects, in ms, against the worker's 250 ms budget (the worst shape of docs/policy.md).
import { Validator } from '@cfworker/json-schema';
import { compileSchema, type Engine } from '../src/engine/index.ts';
import type { CfworkerDraft } from './fixtures.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, measure } from './harness.ts';
import { oneWrongLeaf } from './real-fixtures.ts';
import { formatSpreadOf, roundRatios, type Spread, spreadOf } from './spread.ts';

export interface LargeCase {
  readonly objectOverPrint: Spread;
  /** The same with the schema deeply frozen (the engine remembers a frozen object's fingerprint by identity). */
  readonly frozenOverPrint: Spread;
  /** ns per call of each. */
  readonly objectNs: number;
  readonly printNs: number;
  readonly wrongLeaf: Spread;
  readonly wrongLeafNs: number;
  readonly issues: number;
}

/** A valid call that costs little, so what reaching the compiled schema costs is what the ratio shows. */
const cheapCall = { resources: [], dryRun: true };

/** Both cases on one large schema (the real 84 KB one, or the generated corpus's largest). */
export async function measureLargeCase(engine: Engine, schema: Record<string, unknown>, draft: CfworkerDraft): Promise<LargeCase> {
  const { fingerprint, result } = engine.compile(schema);
  if (result.status === 'refused') throw new Error(`large case refused: ${result.refusal.message}`);
  const compiled = compileSchema(schema);
  if (compiled.status === 'refused') throw new Error('large case refused');
  const wrong = oneWrongLeaf();
  const verdict = compiled.schema.validate(wrong);
  const full = new Validator(structuredClone(schema), draft, false);
  if (verdict.status !== 'invalid' || full.validate(wrong).valid) throw new Error('the wrong leaf is not wrong');
  if (engine.validate(schema, cheapCall).status !== 'valid') throw new Error('the cheap call is not valid');
  const frozen = deepFreeze(structuredClone(schema));
  const [byObject, byPrint, byFrozen] = await measure(
    [
      { name: 'validate(schema object)', run: () => engine.validate(schema, cheapCall) },
      { name: 'validate(fingerprint)', run: () => engine.validate(fingerprint, cheapCall) },
      { name: 'validate(frozen schema object)', run: () => engine.validate(frozen, cheapCall) },
    ],
    defaultHarnessOptions,
  );
  const [explained, cfworker] = await measure(
    [
      { name: 'schemaval one wrong leaf', run: () => compiled.schema.validate(wrong) },
      { name: 'cfworker full one wrong leaf', run: () => full.validate(wrong) },
    ],
    defaultHarnessOptions,
  );
  if (!byObject || !byPrint || !byFrozen || !explained || !cfworker) throw new Error('no measurement');
  return {
    objectOverPrint: spreadOf(roundRatios(byObject, byPrint)),
    frozenOverPrint: spreadOf(roundRatios(byFrozen, byPrint)),
    objectNs: byObject.medianNs,
    printNs: byPrint.medianNs,
    wrongLeaf: spreadOf(roundRatios(explained, cfworker)),
    wrongLeafNs: explained.medianNs,
    issues: verdict.issues.length,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** An array of 26-property objects (`required`, `additionalProperties: false`) and ~186 KB of them all wrong. */
export function allWrongCase(targetBytes = 186 * 1024): { schema: Record<string, unknown>; instance: unknown[]; bytes: number } {
  const names = Array.from({ length: 26 }, (_, i) => `field_${String.fromCharCode(97 + i)}`);
  const schema = {
    type: 'array',
    items: {
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, { type: 'integer', minimum: 0 }])),
      required: names,
      additionalProperties: false,
    },
  };
  // Every property a string where an integer is wanted, and one unknown key: 27 failures an object.
  const wrong = (i: number) => ({ ...Object.fromEntries(names.map((name) => [name, `v${i}`])), extra: i });
  const instance: unknown[] = [];
  let bytes = 2;
  while (bytes < targetBytes) {
    const item = wrong(instance.length);
    bytes += JSON.stringify(item).length + 1;
    instance.push(item);
  }
  return { schema, instance, bytes };
}

export interface AllWrong {
  readonly ms: Spread;
  readonly bytes: number;
  readonly objects: number;
  /** The first issue's keyword: a bound (`maxWork`) would mean the case measured the refusal, not the walk. */
  readonly keyword: string;
}

/** compileSchema().validate of the all-wrong instance, ms per call, min/median/max over rounds. */
export async function measureAllWrong(): Promise<AllWrong> {
  const { schema, instance, bytes } = allWrongCase();
  const compiled = compileSchema(schema);
  if (compiled.status === 'refused') throw new Error('all-wrong schema refused');
  const verdict = compiled.schema.validate(instance);
  if (verdict.status !== 'invalid') throw new Error('the all-wrong instance is valid');
  const [m] = await measure([{ name: 'all wrong', run: () => compiled.schema.validate(instance) }], {
    warmupMs: 300,
    batchMs: 1,
    budgetMs: 3_000,
    minRounds: 7,
    maxRounds: 15,
  });
  if (!m) throw new Error('no measurement');
  return { ms: spreadOf(m.samples.map((ns) => ns / 1e6)), bytes, objects: instance.length, keyword: verdict.issues[0]?.keyword ?? '' };
}

export function largeCaseLines(large: LargeCase, name: string): string[] {
  const x = (spread: Spread): string => `${formatSpreadOf(spread, (v) => v.toFixed(2))}x`;
  return [
    `   ${name}: validate(schema object) ${formatNs(large.objectNs)} vs by fingerprint ${formatNs(large.printNs)} on ` +
      `{"resources":[],"dryRun":true}: ${x(large.objectOverPrint)}; deeply frozen schema object ${x(large.frozenOverPrint)}`,
    `   ${name}: one wrong leaf (${large.issues} issue${large.issues === 1 ? '' : 's'}) explained in ${formatNs(large.wrongLeafNs)}, ` +
      `${x(large.wrongLeaf)} cfworker shortCircuit=false`,
  ];
}
