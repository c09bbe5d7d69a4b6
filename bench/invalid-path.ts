// Section 7 of `npm run bench`: what an invalid instance costs (schemaval's issues vs cfworker's own full output),
// and how long each hostile family of issue #9 takes in-process now that work is bounded by construction.
import { Validator } from '@cfworker/json-schema';
import { compileSchema } from '../src/engine/index.ts';
import { hostileInputs } from '../test/fixtures/hostile-inputs.ts';
import { buildLargeSchema } from '../test/fixtures/real-world/large-schema.ts';
import { createBenchAjv } from './contenders.ts';
import type { CfworkerDraft, Fixture } from './fixtures.ts';
import { formatTable } from './format-table.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, type Measurement, measure, pairedRatio } from './harness.ts';

/** Acceptance bar (issue #9): an invalid instance costs at most this factor of cfworker's full-output mode. */
export const invalidTarget = 3;

/** One schema with a wrong instance. */
export interface InvalidCase {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly draft: CfworkerDraft;
  readonly instance: unknown;
}

export interface InvalidResult {
  readonly name: string;
  readonly bytes: number;
  readonly issues: number;
  readonly schemaval: Measurement;
  readonly cfworkerFull: Measurement;
  readonly ajv: Measurement;
}

const region = ['us-east-1', 'eu-west-1'];

/**
 * The real-world-sized schema (84 KB, 1,030 subschemas) with a 240 KB wrong instance: 10 resources that each fail
 * every one of the 39 `anyOf` branches, carrying long command lines.
 */
export function realLargeCase(): InvalidCase {
  const resources = Array.from({ length: 10 }, (_, i) => ({
    name: `web-${i}`,
    region: i % 2 === 0 ? 'mars-north-1' : region[i % region.length],
    size: 4096 + i,
    replicas: 'three',
    labels: { team: 'platform', owner: 'x'.repeat(80) },
    tags: ['a', 'b', 'a'],
    ports: [{ port: 0, protocol: 'sctp' }, { protocol: 'tcp' }],
    spec: { image: 'nginx', command: ['run', `--flags=${'x'.repeat(24_000)}`, 1], env: { MODE: 2 }, restart: 'sometimes', extra: true },
  }));
  return {
    name: 'real 84 KB',
    schema: buildLargeSchema(),
    draft: '7',
    instance: { resources, settings: { level1: { level2: { level3: 'deep' } } }, dryRun: 'no', surprise: 1 },
  };
}

/** The bench fixtures' invalid instances plus the real-world-sized case. */
export function invalidCases(fixtures: readonly Fixture[]): InvalidCase[] {
  return [...fixtures.map((f) => ({ name: f.name, schema: f.schema, draft: f.draft, instance: f.invalid })), realLargeCase()];
}

export async function measureInvalidPath(cases: readonly InvalidCase[]): Promise<InvalidResult[]> {
  const results: InvalidResult[] = [];
  for (const item of cases) {
    const compiled = compileSchema(item.schema);
    if (compiled.status === 'refused') throw new Error(`${item.name}: refused: ${compiled.refusal.message}`);
    const verdict = compiled.schema.validate(item.instance);
    if (verdict.status === 'valid') throw new Error(`${item.name}: the wrong instance is valid`);
    const full = new Validator(structuredClone(item.schema), item.draft, false);
    if (full.validate(item.instance).valid) throw new Error(`${item.name}: cfworker finds the wrong instance valid`);
    const ajv = createBenchAjv().compile(structuredClone(item.schema));
    const [schemaval, cfworkerFull, ajvRun] = await measure(
      [
        { name: 'schemaval', async: false, run: () => compiled.schema.validate(item.instance) },
        { name: 'cfworker-full', async: false, run: () => full.validate(item.instance) },
        { name: 'ajv', async: false, run: () => ajv(item.instance) },
      ],
      defaultHarnessOptions,
    );
    results.push({
      name: item.name,
      bytes: JSON.stringify(item.instance).length,
      issues: verdict.issues.length,
      schemaval: schemaval as Measurement,
      cfworkerFull: cfworkerFull as Measurement,
      ajv: ajvRun as Measurement,
    });
  }
  return results;
}

export function invalidTable(results: readonly InvalidResult[]): string {
  return formatTable(
    [
      ['schema', 'instance', 'issues', 'schemaval', 'cfworker full', 'ajv allErrors', '×cf full'],
      ...results.map((r) => [
        r.name,
        `${(r.bytes / 1024).toFixed(1)} KB`,
        String(r.issues),
        formatNs(r.schemaval.medianNs),
        formatNs(r.cfworkerFull.medianNs),
        formatNs(r.ajv.medianNs),
        `${pairedRatio(r.schemaval, r.cfworkerFull).toFixed(2)}x`,
      ]),
    ],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

export function invalidSummaryLines(results: readonly InvalidResult[]): string[] {
  return results.map((r) => {
    const ratio = pairedRatio(r.schemaval, r.cfworkerFull);
    return `${`invalid ${r.name}:`.padEnd(22)}schemaval/cfworker full = ${ratio.toFixed(2)}x  ${ratio <= invalidTarget ? 'PASS' : 'MISS'}`;
  });
}

/** Each hostile family once through compileSchema().validate, in-process: milliseconds and the outcome. */
export function hostileLines(workerBudgetMs: number): string[] {
  const rows: string[][] = [['hostile input', 'outcome', 'ms', `< ${workerBudgetMs} ms`]];
  for (const input of hostileInputs) {
    const started = performance.now();
    const compiled = compileSchema(input.schema);
    let outcome: string;
    if (compiled.status === 'refused') outcome = `refused ${compiled.refusal.code}`;
    else {
      const verdict = compiled.schema.validate(input.instance);
      outcome =
        verdict.status === 'valid'
          ? 'valid'
          : `invalid (${[...new Set(verdict.issues.map((issue) => issue.keyword))].slice(0, 3).join(', ')})`;
    }
    const ms = performance.now() - started;
    rows.push([input.name, outcome, ms.toFixed(1), ms < workerBudgetMs ? 'PASS' : 'MISS']);
  }
  return formatTable(rows, ['left', 'left', 'right', 'left']).split('\n');
}
