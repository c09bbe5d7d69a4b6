// Section 8 of `npm run bench`: what the linear-time matcher (decision 009) costs against the backtracking RegExp
// it replaces, on the bench fixtures' own patterns, per check as the validator makes it (construct, then test).
import { withLinearPatterns } from '../src/engine/adapters/linear-regexp-scope.ts';
import { compileLinearPattern, compileRe2Pattern } from '../src/engine/linear-pattern.ts';
import { formatTable } from './format-table.ts';
import { formatNs } from './format-units.ts';
import { defaultHarnessOptions, type Measurement, measure, pairedRatio } from './harness.ts';

/** The fixtures' patterns with a matching value each (bench/fixtures.ts, bench/large-fixture.ts). */
const samples: readonly (readonly [pattern: string, input: string])[] = [
  ['^\\+?[0-9 ()-]{6,32}$', '+1 (555) 123-4567'],
  ['^[0-9]{1,2}$', '11'],
  ['^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$', 'America/Argentina/Buenos_Aires'],
  ['^[a-z]+/[a-z0-9.+-]+$', 'application/vnd.api+json'],
  ['^[a-z]{2,4}_[0-9A-Za-z]{8,32}$', 'usr_8f3kQ2mZp01'],
  ['^[a-zA-Z_][a-zA-Z0-9_]{0,62}$', 'billing_contact_2'],
];

export interface PatternCost {
  readonly pattern: string;
  readonly path: 'native (provably linear)' | 're2js';
  readonly native: Measurement;
  readonly scoped: Measurement;
  readonly re2: Measurement;
}

export async function measurePatternCost(): Promise<PatternCost[]> {
  const out: PatternCost[] = [];
  for (const [pattern, input] of samples) {
    const linear = compileLinearPattern(pattern);
    const re2 = compileRe2Pattern(pattern);
    if (!linear.ok || !re2.ok) throw new Error(`${pattern}: not supported by the linear matcher`);
    if (!new RegExp(pattern, 'u').test(input) || !re2.matcher.test(input)) throw new Error(`${pattern}: sample does not match`);
    const [native, scoped, always] = await measure(
      [
        { name: 'native', async: false, run: () => new RegExp(pattern, 'u').test(input) },
        { name: 'scoped', async: false, run: () => withLinearPatterns(() => new RegExp(pattern, 'u').test(input)) },
        { name: 're2', async: false, run: () => re2.matcher.test(input) },
      ],
      defaultHarnessOptions,
    );
    const isNative = linear.matcher.constructor.name === 'RegExp';
    out.push({
      pattern,
      path: isNative ? 'native (provably linear)' : 're2js',
      native: native as Measurement,
      scoped: scoped as Measurement,
      re2: always as Measurement,
    });
  }
  return out;
}

export function patternCostTable(results: readonly PatternCost[]): string {
  return formatTable(
    [
      ['pattern', 'schemaval path', 'RegExp', 'schemaval', '×RegExp', 're2js always'],
      ...results.map((r) => [
        r.pattern,
        r.path,
        formatNs(r.native.medianNs),
        formatNs(r.scoped.medianNs),
        `${pairedRatio(r.scoped, r.native).toFixed(2)}x`,
        formatNs(r.re2.medianNs),
      ]),
    ],
    ['left', 'left', 'right', 'right', 'right', 'right'],
  );
}
