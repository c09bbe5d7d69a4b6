// Differential test (issue #9): generated schemas and instances, the engine's verdict against
// @hyperjump/json-schema's. A disagreement fails with the shrunk schema, instance and both verdicts unless a
// reviewed deviation (or, for now, a pending fix) explains it. More runs: SCHEMAVAL_DIFF_SEED / SCHEMAVAL_DIFF_RUNS.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileSchema, createEngine, parseJson } from '../../src/engine/index.ts';
import { type Exact, exactOfDouble, exactOfText, exactVerdict, type NumberKeyword } from '../helpers/exact-numbers.ts';
import { compileWithOracle } from '../helpers/hyperjump-oracle.ts';
import { instanceFor } from '../helpers/instance-arbitrary.ts';
import { type Json, type JsonObject, jsonArb, jsonText } from '../helpers/json-values.ts';
import { keywordKeyInstanceArb, keywordKeySchemaArbitrary, pointerToken, trickyRefs } from '../helpers/keyword-keys.ts';
import { minimizePair } from '../helpers/minimize-pair.ts';
import { definitionNames, dialectUris, type GeneratedDialect, refTo, type Schema, schemaArbitrary } from '../helpers/schema-arbitrary.ts';
import {
  type Deviation,
  type DifferentialPair,
  deviations,
  keywordValues,
  pendingFixes,
  reviewedRefusals,
} from './differential-deviations.ts';

const seed = Number(process.env.SCHEMAVAL_DIFF_SEED ?? 20_261_130);
/** Schemas per run; each is checked against `instancesPerSchema` instances. */
const runs = Number(process.env.SCHEMAVAL_DIFF_RUNS ?? 1000);
const instancesPerSchema = 5;
/** Schemas with keyword- and prototype-named keys per run (a fraction of `runs`). */
const keyRuns = Math.max(1, Math.round(runs * 0.4));
/** Instances per real-world tool schema (SCHEMAVAL_DIFF_CORPUS). */
const corpusInstances = Number(process.env.SCHEMAVAL_DIFF_CORPUS ?? 12);

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
const generatedRefs = new Set([
  '#',
  ...definitionNames.flatMap((name) => [refTo('2020-12', name), refTo('draft-07', name)]),
  ...trickyRefs,
]);

/** The smallest pair found that still disagrees the same way (see helpers/minimize-pair.ts). */
async function minimizeDisagreement(pair: DifferentialPair): Promise<DifferentialPair> {
  const stillFails = async (schema: Json, instance: Json): Promise<boolean> => {
    if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) return false;
    // Dropping `$schema` would change the engine's dialect but not the oracle's.
    if (pair.dialect === 'draft-07' && (typeof schema === 'boolean' || schema.$schema !== dialectUris['draft-07'])) return false;
    // Cutting a `$ref` string would make a dangling reference: a different defect from the one being minimised.
    // (A non-string value under `$ref` is a property named `$ref`, which the keyword-key generator writes.)
    if (keywordValues(schema, '$ref').some((ref) => typeof ref === 'string' && !generatedRefs.has(ref))) return false;
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

const newTally = (): Tally => ({
  pairs: 0,
  agreeValid: 0,
  agreeInvalid: 0,
  refused: new Map(),
  oracleRejected: [],
  deviations: new Map(),
  pending: new Map(),
});

/** Prints the tally and checks the run still says something (few refusals, both verdicts common). */
async function report(t: { diagnostic: (message: string) => void }, tally: Tally, minShare = 0.2): Promise<void> {
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
  assert.ok(tally.agreeValid > agreed * minShare && tally.agreeInvalid > agreed * minShare, 'verdicts are too one-sided');
}

describe('differential test against @hyperjump/json-schema', () => {
  it(`agrees on ${runs * instancesPerSchema} generated schema/instance pairs (seed ${seed})`, async (t) => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(caseArb, (input) => checkCase(input, tally)),
      // No fast-check shrinking: it cannot shrink through the chain; minimizeDisagreement does the cutting.
      { seed, numRuns: runs, endOnFailure: true, includeErrorInReport: true },
    );
    await report(t, tally);
  });

  it(`agrees on ${keyRuns * instancesPerSchema} pairs with keyword- and prototype-named keys (seed ${seed})`, async (t) => {
    const keyCaseArb: fc.Arbitrary<Case> = fc.constantFrom<GeneratedDialect>('2020-12', 'draft-07').chain((dialect) =>
      fc.record({
        dialect: fc.constant(dialect),
        schema: keywordKeySchemaArbitrary(dialect),
        instances: fc.array(keywordKeyInstanceArb, { minLength: instancesPerSchema, maxLength: instancesPerSchema }),
        viaText: fc.boolean(),
      }),
    );
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(keyCaseArb, (input) => checkCase(input, tally)),
      { seed: seed + 1, numRuns: keyRuns, endOnFailure: true, includeErrorInReport: true },
    );
    await report(t, tally, 0.1);
  });
});

// Numbers the doubles of hyperjump cannot judge: checked against exact decimal arithmetic instead, on the object
// path (plain JS numbers: shortest decimal below 2^53, exact binary value from 2^53 on) and on the text path (a
// JSON text means its digits). docs/dialects.md, "What a JavaScript number means".
const bigDoubles: readonly number[] = [
  0,
  1,
  3,
  1000,
  1024,
  0.1,
  2.5,
  2 ** 35,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  2 ** 64,
  -(2 ** 64),
  2 ** 70,
  1e21,
  1e300,
  -1e300,
  5e-324,
  1e-300,
  Number.MAX_VALUE,
];
const bigTexts: readonly string[] = [
  '1e300',
  '1E+300',
  '-1e300',
  '18446744073709551616',
  '18446744073709551617',
  '-18446744073709551616',
  '1152921504606846976',
  '1152921504606847000',
  '1180591620717411303424',
  '9007199254740993',
  '9007199254740992.0',
  '5e-324',
  '4.9406564584124654e-324',
  '1e-400',
  '3e0',
  '1000e-3',
  '1e400',
  '100000000000000000000000000000000000000000000000000',
  ...bigDoubles.map((value) => JSON.stringify(value)),
];
const numberKeywords: readonly NumberKeyword[] = [
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'const',
  'enum',
];

interface NumberCase {
  readonly label: string;
  readonly keyword: NumberKeyword;
  readonly bounds: readonly Exact[];
  readonly value: Exact;
  /** The engine's verdict: valid, invalid, or a refusal/error message. */
  readonly run: () => boolean | string;
}

/**
 * A one-keyword schema; the same keyword behind `properties.constructor` and a `$ref` into escaped `$defs`; and in
 * draft-07 behind `dependencies.type`, `properties.$ref` and a `$ref` into escaped `definitions` (where issue 20's
 * exact path lost its `$ref` pinning).
 */
function numberSchemas(keyword: NumberKeyword, bound: unknown): { schema: JsonObject; wrap: (value: unknown) => unknown; key: string }[] {
  const leaf = { [keyword]: keyword === 'enum' ? [bound, 7] : bound } as JsonObject;
  const defs = Object.fromEntries([['a/b~%', leaf]]) as JsonObject;
  const ref = { $ref: `#/$defs/${pointerToken('a/b~%')}` };
  const draft07Ref = { $ref: `#/definitions/${pointerToken('a/b~%')}` };
  return [
    { schema: leaf, wrap: (value) => value, key: '' },
    {
      schema: { properties: Object.fromEntries([['constructor', ref]]), $defs: defs } as JsonObject,
      wrap: (value) => Object.fromEntries([['constructor', value]]),
      key: 'constructor',
    },
    {
      schema: {
        $schema: dialectUris['draft-07'],
        dependencies: { type: { properties: Object.fromEntries([['$ref', draft07Ref]]) } },
        definitions: defs,
      } as JsonObject,
      wrap: (value) =>
        Object.fromEntries([
          ['type', 0],
          ['$ref', value],
        ]),
      key: '$ref',
    },
  ];
}

function numberCases(): NumberCase[] {
  const engine = createEngine();
  const outcome = (result: ReturnType<typeof engine.validate>): boolean | string =>
    result.status === 'valid' ? true : result.status === 'invalid' ? false : `${result.status}: ${JSON.stringify(result)}`;
  const attempt = (run: () => ReturnType<typeof engine.validate>) => () => {
    try {
      return outcome(run());
    } catch (error) {
      return `threw ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const cases: NumberCase[] = [];
  const lossless = (text: string): unknown => {
    const parsed = parseJson(text, textLimits);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  };
  for (const keyword of numberKeywords) {
    // Bounds written in code (doubles) and bounds read losslessly from JSON text.
    const bounds: { text: string; exact: Exact; code?: number }[] = [
      ...bigDoubles.map((code) => ({ text: `${code}`, exact: exactOfDouble(code), code })),
      ...bigTexts.filter((text) => Number.isFinite(Number(text))).map((text) => ({ text, exact: exactOfText(text) })),
    ];
    for (const bound of bounds) {
      if (keyword === 'multipleOf' && bound.exact.digits <= 0n) continue;
      const boundList = keyword === 'enum' ? [bound.exact, exactOfDouble(7)] : [bound.exact];
      const boundValue = bound.code !== undefined ? bound.code : undefined;
      for (const { schema, wrap, key } of numberSchemas(keyword, boundValue ?? 0)) {
        // The schema with the bound as a double, or (for text bounds) parsed losslessly from its own text.
        const schemaText = JSON.stringify(schema).replace(
          /"(multipleOf|minimum|maximum|exclusiveMinimum|exclusiveMaximum|const|enum)":\[?0/,
          (m) => m.slice(0, -1) + bound.text,
        );
        const engineSchema = bound.code !== undefined ? schema : lossless(schemaText);
        const where = `${key === '$ref' ? 'dependencies.type → .$ref → $ref ' : key ? `.${key} → $ref ` : ''}{${keyword}: ${bound.code !== undefined ? `${bound.text} (double)` : `${bound.text} (text)`}}`;
        if (bound.code !== undefined) {
          for (const value of bigDoubles) {
            cases.push({
              label: `validate(${where}, ${value})`,
              keyword,
              bounds: boundList,
              value: exactOfDouble(value),
              run: attempt(() => engine.validate(engineSchema as JsonObject, wrap(value))),
            });
          }
        }
        for (const text of bigTexts) {
          const instanceText = key === '$ref' ? `{"type":0,"$ref":${text}}` : key ? `{${JSON.stringify(key)}:${text}}` : text;
          cases.push({
            label: `validateJson(${where}, '${instanceText}')`,
            keyword,
            bounds: boundList,
            value: exactOfText(text),
            run: attempt(() => engine.validateJson(engineSchema as JsonObject, instanceText)),
          });
        }
      }
    }
  }
  return cases;
}

describe('numbers past 2^53 and extreme exponents against exact arithmetic', () => {
  it('validate() and validateJson() give the exact verdict for every keyword, bound and value', (t) => {
    const wrong: string[] = [];
    let valid = 0;
    let invalid = 0;
    const cases = numberCases();
    for (const entry of cases) {
      const want = exactVerdict(entry.keyword, entry.bounds, entry.value);
      const got = entry.run();
      if (got === want) {
        if (want) valid++;
        else invalid++;
      } else
        wrong.push(
          `${entry.label}: engine ${typeof got === 'string' ? got : got ? 'valid' : 'invalid'}, exact ${want ? 'valid' : 'invalid'}`,
        );
    }
    t.diagnostic(`number cases ${cases.length}: ${valid} valid + ${invalid} invalid agree with exact arithmetic; ${wrong.length} wrong`);
    assert.deepEqual(wrong.slice(0, 40), [], `${wrong.length} number cases disagree with exact arithmetic`);
  });
});

// The real-world corpus (test/fixtures/real-world/servers) as differential schemas: every accepted tool's
// inputSchema, with instances aimed at it and mutated ones, against hyperjump.
interface ServerFixture {
  readonly package: string;
  readonly result: { readonly tools: readonly { readonly name: string; readonly inputSchema?: unknown }[] };
}

const corpusDir = new URL('../fixtures/real-world/servers/', import.meta.url);
const corpusTools = readdirSync(corpusDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => {
    const server = JSON.parse(readFileSync(new URL(file, corpusDir), 'utf8')) as ServerFixture;
    return server.result.tools.map((tool) => ({ id: `${server.package} ${tool.name}`, schema: tool.inputSchema }));
  });

/** An instance with one change: a member dropped, a member replaced by any JSON value, or the whole value replaced. */
const mutated = (base: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
  fc.tuple(base, fc.nat(), fc.constantFrom('drop', 'replace', 'whole'), jsonArb).map(([value, pick, how, other]) => {
    if (how === 'whole' || value === null || typeof value !== 'object' || Array.isArray(value)) return other;
    const keys = Object.keys(value);
    if (keys.length === 0) return other;
    const key = keys[pick % keys.length]!;
    const copy: JsonObject = { ...value };
    if (how === 'drop') delete copy[key];
    else copy[key] = other;
    return copy;
  });

describe('the real-world corpus in the differential', () => {
  it(`agrees with hyperjump on ${corpusInstances} instances per accepted tool schema (seed ${seed})`, async (t) => {
    const tally = newTally();
    const disagreements: string[] = [];
    let accepted = 0;
    let refusedTools = 0;
    for (const [index, tool] of corpusTools.entries()) {
      const schema = tool.schema as Schema;
      const compiled = compileSchema(schema);
      if (compiled.status !== 'accepted') {
        refusedTools++;
        continue;
      }
      accepted++;
      const dialect: GeneratedDialect =
        typeof schema === 'object' && typeof schema.$schema === 'string' && schema.$schema.includes('draft-07') ? 'draft-07' : '2020-12';
      const oracle = await compileWithOracle(schema, dialect);
      if (!oracle.ok) {
        tally.oracleRejected.push(`${tool.id}: ${oracle.error}`);
        continue;
      }
      const aimed = instanceFor(schema);
      const instances = fc.sample(fc.oneof({ weight: 2, arbitrary: aimed }, { weight: 1, arbitrary: mutated(aimed) }), {
        seed: seed + index,
        numRuns: corpusInstances,
      });
      for (const [n, instance] of instances.entries()) {
        const viaText = n % 2 === 1;
        const engine = compiled.schema.validate(forEngine(instance, viaText)).status === 'valid';
        const hyperjump = oracle.validate(instance);
        tally.pairs++;
        if (engine === hyperjump) {
          if (engine) tally.agreeValid++;
          else tally.agreeInvalid++;
          continue;
        }
        const pair: DifferentialPair = { dialect, schema, instance, engine, hyperjump };
        const deviation = deviations.find((entry) => entry.matches(pair));
        if (deviation) bump(tally.deviations, deviation.id);
        else disagreements.push(`${tool.id}${viaText ? ' (via text)' : ''}\n${describePair(pair)}`);
      }
    }
    t.diagnostic(`corpus: ${corpusTools.length} tools, ${accepted} accepted, ${refusedTools} refused (not compared)`);
    assert.deepEqual(disagreements.slice(0, 10), [], `${disagreements.length} disagreements on the real-world corpus`);
    await report(t, tally, 0.1);
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
