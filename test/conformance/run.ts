// `npm run conformance -- --suite DIR [--strict]`: the JSON-Schema-Test-Suite through the engine.
import { readFileSync } from 'node:fs';
import { scriptArgs } from '../../scripts/script-args.mjs';
import { compileSchema } from '../../src/engine/index.ts';
import { classify, type Expectation, type GroupResult, loadSuite } from './suite.ts';

const usage = `usage: npm run conformance -- --suite DIR [--strict]
runs the JSON-Schema-Test-Suite in DIR through the engine and prints pass/fail/refused per dialect.
  --suite DIR  the suite's checkout (this repository's copy: test/fixtures/json-schema-test-suite)
  --strict     exit 1 on a silent fail or a stale expectation (npm run conformance:ci)
  -h, --help   this help`;
const { values } = scriptArgs({
  command: 'npm run conformance',
  usage,
  options: { suite: { type: 'string' }, strict: { type: 'boolean', default: false } },
});
const suite = values.suite;
if (typeof suite !== 'string') {
  console.error('npm run conformance: --suite DIR is required (npm run conformance -- --help lists the options)');
  process.exit(2);
}
const expectations = JSON.parse(readFileSync(new URL('./expectations.json', import.meta.url), 'utf8')).refusals as Expectation[];

const started = performance.now();
const results: GroupResult[] = loadSuite(suite).map((group) => {
  const compiled = compileSchema(group.schema, { defaultDialect: group.dialect });
  if (compiled.status === 'refused') return { group, outcome: compiled };
  const failed: string[] = [];
  let passed = 0;
  for (const test of group.tests) {
    const verdict = compiled.schema.validate(test.data);
    if ((verdict.status === 'valid') === test.valid) passed++;
    else failed.push(`${test.description} (want ${test.valid ? 'valid' : 'invalid'})`);
  }
  return { group, outcome: { status: 'checked', failed, passed } };
});
const report = classify(results, expectations);

console.log('dialect        pass  fail  refused (reviewed)');
let total = { pass: 0, fail: 0, refused: 0 };
for (const [folder, f] of report.byDialect) {
  console.log(
    `${folder.padEnd(14)} ${String(f.pass).padStart(4)}  ${String(f.fail).padStart(4)}  ${String(f.refused).padStart(7)} (${f.refusedExpected})`,
  );
  total = { pass: total.pass + f.pass, fail: total.fail + f.fail, refused: total.refused + f.refused };
}
console.log(`all            ${String(total.pass).padStart(4)}  ${String(total.fail).padStart(4)}  ${String(total.refused).padStart(7)}`);
for (const line of report.silent) console.log(`SILENT  ${line}`);
for (const line of report.stale) console.log(`STALE   ${line}`);
console.log(
  `conformance: ${report.silent.length} silent fails, ${report.stale.length} stale expectations (${Math.round(performance.now() - started)} ms)`,
);
if (values.strict && (report.silent.length > 0 || report.stale.length > 0)) process.exit(1);
