// Differential test (issue #9): generated schemas and instances, the engine's verdict against
// @hyperjump/json-schema's. A disagreement fails with the shrunk schema, instance and both verdicts unless a
// reviewed deviation (or, for now, a pending fix) explains it. More runs: SCHEMAVAL_DIFF_SEED / SCHEMAVAL_DIFF_RUNS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileSchema, parseJson } from '../src/engine/index.ts';
import {
  type Deviation,
  type DifferentialPair,
  deviations,
  keywordValues,
  pendingFixes,
  reviewedRefusals,
} from './differential-deviations.ts';
import { compileWithOracle } from './helpers/hyperjump-oracle.ts';
import { instanceFor } from './helpers/instance-arbitrary.ts';
import { type Json, jsonText } from './helpers/json-values.ts';
import { minimizePair } from './helpers/minimize-pair.ts';
import { definitionNames, dialectUris, type GeneratedDialect, refTo, type Schema, schemaArbitrary } from './helpers/schema-arbitrary.ts';

const seed = Number(process.env.SCHEMAVAL_DIFF_SEED ?? 20_261_130);
/** Schemas per run; each is checked against `instancesPerSchema` instances. */
const runs = Number(process.env.SCHEMAVAL_DIFF_RUNS ?? 1000);
const instancesPerSchema = 5;

interface Case {
  readonly dialect: GeneratedDialect;
  readonly schema: Schema;
  readonly instances: readonly Json[];
  /** Pass schema and instances to the engine as JSON text with integers written `1.0` (through parseJson). */
  readonly viaText: boolean;
}

const caseArb: fc.Arbitrary<Case> = fc.constantFrom<GeneratedDialect>('2020-12', '2020-12', '2020-12', 'draft-07').chain((dialect) =>
  schemaArbitrary(dialect).chain((schema) =>
    fc.record({
      dialect: fc.constant(dialect),
      schema: fc.constant(schema),
      instances: fc.array(instanceFor(schema), { minLength: instancesPerSchema, maxLength: instancesPerSchema }),
      viaText: fc.boolean(),
    }),
  ),
);

const textLimits = { maxBytes: 1_048_576, maxDepth: 64 };

/** What the engine sees: the value itself, or the value read back from JSON text with `1.0`-style integers. */
function forEngine(value: Json, viaText: boolean): unknown {
  if (!viaText) return value;
  const parsed = parseJson(jsonText(value, true), textLimits);
  if (!parsed.ok) throw new Error(`generated JSON did not parse: ${parsed.message}`);
  return parsed.value;
}

/** The engine's verdict for one pair: a boolean, or the refusal code when the policy refuses the schema. */
function engineVerdict(schema: Schema, instance: Json): boolean | string {
  const compiled = compileSchema(schema);
  return compiled.status === 'accepted' ? compiled.schema.validate(instance).status === 'valid' : compiled.refusal.code;
}

/** Hyperjump's verdict for one pair (throws if hyperjump will not compile the schema). */
async function oracleVerdict(pair: Pick<DifferentialPair, 'schema' | 'dialect' | 'instance'>): Promise<boolean> {
  const oracle = await compileWithOracle(pair.schema, pair.dialect);
  if (!oracle.ok) throw new Error(`hyperjump rejected the schema: ${oracle.error}`);
  return oracle.validate(pair.instance);
}

/** JSON for failure messages, with -0 kept visible. */
const show = (value: unknown): string =>
  JSON.stringify(value, (_key, item) => (Object.is(item, -0) ? 'minus-zero' : item)).replaceAll('"minus-zero"', '-0');

const verdictText = (verdict: boolean | string): string =>
  typeof verdict === 'string' ? `refused (${verdict})` : verdict ? 'valid' : 'invalid';

function describePair(pair: DifferentialPair): string {
  return [
    `engine and hyperjump disagree (${pair.dialect})`,
    `  schema:    ${show(pair.schema)}`,
    `  instance:  ${show(pair.instance)}`,
    `  engine:    ${verdictText(pair.engine)}`,
    `  hyperjump: ${verdictText(pair.hyperjump)}`,
  ].join('\n');
}

interface Tally {
  pairs: number;
  agreeValid: number;
  agreeInvalid: number;
  refused: Map<string, number>;
  oracleRejected: string[];
  deviations: Map<string, number>;
  pending: Map<string, { count: number; first: DifferentialPair }>;
}

const bump = (map: Map<string, number>, key: string, by = 1): void => {
  map.set(key, (map.get(key) ?? 0) + by);
};

/** Counts a disagreement a reviewed deviation or a pending fix explains; fails with a minimised pair otherwise. */
async function explain(pair: DifferentialPair, tally: Tally): Promise<void> {
  const deviation = deviations.find((entry) => entry.matches(pair));
  if (deviation) {
    bump(tally.deviations, deviation.id);
    return;
  }
  const pending = pendingFixes.find((entry) => entry.matches(pair));
  if (pending) {
    const seen = tally.pending.get(pending.id);
    tally.pending.set(pending.id, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? pair });
    return;
  }
  const minimal = await minimizeDisagreement(pair);
  assert.fail(`${describePair(minimal)}\n(minimised from ${show(pair.schema)} with instance ${show(pair.instance)})`);
}

async function checkCase(input: Case, tally: Tally): Promise<void> {
  const compiled = compileSchema(forEngine(input.schema as Json, input.viaText));
  tally.pairs += input.instances.length;
  if (
    compiled.status === 'refused' &&
    reviewedRefusals.some((entry) => entry.code === compiled.refusal.code && entry.applies(input.schema))
  ) {
    bump(tally.refused, compiled.refusal.code, input.instances.length);
    return;
  }
  const oracle = await compileWithOracle(input.schema, input.dialect);
  if (!oracle.ok) {
    tally.oracleRejected.push(`${oracle.error}: ${show(input.schema)}`);
    return;
  }
  for (const instance of input.instances) {
    const engine =
      compiled.status === 'accepted'
        ? compiled.schema.validate(forEngine(instance, input.viaText)).status === 'valid'
        : compiled.refusal.code;
    const pair: DifferentialPair = { dialect: input.dialect, schema: input.schema, instance, engine, hyperjump: oracle.validate(instance) };
    if (engine === pair.hyperjump) {
      if (engine) tally.agreeValid++;
      else tally.agreeInvalid++;
    } else await explain(pair, tally);
  }
}

/** The `$ref`s the generator writes. */
const generatedRefs = new Set(['#', ...definitionNames.flatMap((name) => [refTo('2020-12', name), refTo('draft-07', name)])]);

/** The smallest pair found that still disagrees the same way (see helpers/minimize-pair.ts). */
async function minimizeDisagreement(pair: DifferentialPair): Promise<DifferentialPair> {
  const stillFails = async (schema: Json, instance: Json): Promise<boolean> => {
    if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) return false;
    // Dropping `$schema` would change the engine's dialect but not the oracle's.
    if (pair.dialect === 'draft-07' && (typeof schema === 'boolean' || schema.$schema !== dialectUris['draft-07'])) return false;
    // Cutting a `$ref` string would make a dangling reference: a different defect from the one being minimised.
    if (keywordValues(schema, '$ref').some((ref) => typeof ref !== 'string' || !generatedRefs.has(ref))) return false;
    if (engineVerdict(schema, instance) !== pair.engine) return false;
    const oracle = await compileWithOracle(schema, pair.dialect);
    // For a refusal only the schema matters: the oracle must still compile it.
    return oracle.ok && (typeof pair.engine === 'string' || oracle.validate(instance) === pair.hyperjump);
  };
  const minimal = await minimizePair(pair.schema, pair.instance, stillFails);
  const cut = { ...pair, schema: minimal.schema as Schema, instance: minimal.instance };
  // A refusal's instance shrank freely: show hyperjump's verdict for the instance that is shown.
  return typeof pair.engine === 'string' ? { ...cut, hyperjump: await oracleVerdict(cut) } : cut;
}

describe('differential test against @hyperjump/json-schema', () => {
  it(`agrees on ${runs * instancesPerSchema} generated schema/instance pairs (seed ${seed})`, async (t) => {
    const tally: Tally = {
      pairs: 0,
      agreeValid: 0,
      agreeInvalid: 0,
      refused: new Map(),
      oracleRejected: [],
      deviations: new Map(),
      pending: new Map(),
    };
    await fc.assert(
      fc.asyncProperty(caseArb, (input) => checkCase(input, tally)),
      // No fast-check shrinking: it cannot shrink through the chain; minimizeDisagreement does the cutting.
      { seed, numRuns: runs, endOnFailure: true, includeErrorInReport: true },
    );
    const refused = [...tally.refused.values()].reduce((sum, n) => sum + n, 0);
    t.diagnostic(
      `pairs ${tally.pairs}: agree ${tally.agreeValid} valid + ${tally.agreeInvalid} invalid; refused ${refused} ` +
        `(${[...tally.refused].map(([code, n]) => `${code} ${n}`).join(', ') || 'none'}); ` +
        `deviations ${[...tally.deviations].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'}`,
    );
    for (const [id, { count, first }] of tally.pending) {
      t.diagnostic(`pending fix ${id}: ${count} pairs, for example`);
      for (const line of describePair(await minimizeDisagreement(first)).split('\n')) t.diagnostic(line);
    }
    assert.deepEqual(tally.oracleRejected, [], 'the generator made schemas hyperjump rejects');
    // The test only means something while most schemas are admitted and both verdicts come up often.
    assert.ok(refused < tally.pairs * 0.25, `too many refusals: ${refused} of ${tally.pairs}`);
    const agreed = tally.agreeValid + tally.agreeInvalid;
    assert.ok(tally.agreeValid > agreed * 0.2 && tally.agreeInvalid > agreed * 0.2, 'verdicts are too one-sided');
  });
});

/** An entry's examples must match the entry and still get the verdicts it records from both validators. */
async function assertStillDisagrees(entry: Deviation): Promise<void> {
  for (const example of entry.examples) {
    assert.ok(entry.matches(example), `the entry matches its own example ${show(example.instance)}`);
    assert.equal(engineVerdict(example.schema, example.instance), example.engine, `engine on ${show(example.instance)}`);
    assert.equal(await oracleVerdict(example), example.hyperjump, `hyperjump on ${show(example.instance)}`);
  }
}

describe('reviewed deviations still disagree', () => {
  for (const entry of deviations) {
    it(`${entry.id}: every example still gets the recorded verdicts`, () => assertStillDisagrees(entry));
  }
});

describe('pending fixes (temporary): each example still shows the bug', () => {
  for (const entry of pendingFixes) {
    it(`${entry.id}: when this fails, the fix landed: remove the entry from pendingFixes`, () => assertStillDisagrees(entry));
  }
});
