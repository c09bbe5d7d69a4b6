// Section 8 of `npm run bench`: what the linear-time matcher (decision 009) costs against the backtracking RegExp
// it replaces, on the bench fixtures' own patterns, per check as the validator makes it (construct, then test).
import { withLinearPatterns } from '../src/engine/adapters/cfworker/linear-regexp-scope.ts';
import { compileSchema } from '../src/engine/index.ts';
import { compileLinearPattern, compileRe2Pattern } from '../src/engine/patterns/linear-pattern.ts';
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

// Calibration of maxWork's pattern charge (docs/policy.md#patterns): nanoseconds per character and per live
// instruction, on inputs that keep re2js's DFA rebuilding states (or on its NFA), small programs against ~1,000-state
// ones. `node --import tsx bench/pattern-cost.ts` prints this section alone.

/** A deterministic pseudo-random string over `alphabet`, then `tail` (a literal re2js's prefilter looks for). */
function scrambled(alphabet: readonly string[], length: number, tail: string): string {
  let seed = 17;
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 48271) % 2147483647;
    out += alphabet[seed % alphabet.length];
  }
  return out + tail;
}

const upper = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ'];
const mixed = [...'abcdefghijklmnopqrstuvwxyz0123456789+<>=|~$^`', 'é', 'Ж', 'Ω', '中', 'ع', '€', '∑', '١'];

/** Each family at growing program sizes: [pattern, input of `length` characters]. */
function calibrationCases(length: number): [string, string][] {
  const cases: [string, string][] = [];
  for (const n of [10, 30, 100, 300, 1000]) {
    cases.push([`(.{${n}})+z`, `${'y'.repeat(length)}z`]);
    cases.push([`^[ab]*a[ab]{${n - 1}}$`, scrambled(['a', 'b'], length, 'c')]);
    cases.push([`(?:\\p{Lu}){${n}}#`, scrambled(upper, length, '#')]);
    cases.push([`(\\p{L}|\\p{N}|\\p{S}){${Math.min(n, 900)}}!`, scrambled(mixed, length, '!')]);
  }
  cases.push(['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', `${'a@'.repeat(length / 2)}.x`]);
  cases.push(['^[a-z0-9]+(?:-[a-z0-9]+)*$', `${'a-'.repeat(length / 2)}a`]);
  cases.push(['^(a+)+$', 'a'.repeat(length)]);
  cases.push(['\\s*x', `${' '.repeat(length)}x`]);
  cases.push(['x'.repeat(99), 'x'.repeat(length)]);
  cases.push(['.'.repeat(1000), `${'a'.repeat(length)}\n`]);
  return cases;
}

export interface ProgramCostRow {
  readonly pattern: string;
  readonly instructions: number;
  readonly width: number;
  readonly charTicks: number;
  readonly nsPerChar: number;
}

/** Best of three runs per case (a run is long enough that timer noise is small). */
export function measureProgramCost(length = 20_000): ProgramCostRow[] {
  const rows: ProgramCostRow[] = [];
  for (const [pattern, input] of calibrationCases(length)) {
    const compiled = compileLinearPattern(pattern);
    if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
    compiled.matcher.test(input.slice(0, 2_000));
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      const started = process.hrtime.bigint();
      compiled.matcher.test(input);
      best = Math.min(best, Number(process.hrtime.bigint() - started));
    }
    const { instructions, width, charTicks } = compiled.cost;
    rows.push({ pattern, instructions, width, charTicks, nsPerChar: best / input.length });
  }
  return rows;
}

export function programCostTable(rows: readonly ProgramCostRow[]): string {
  return formatTable(
    [
      ['pattern', 'instructions', 'live', 'ticks/char', 'ns/char', 'ns/char/live', 'ns/tick'],
      ...rows.map((r) => [
        r.pattern.length > 40 ? `${r.pattern.slice(0, 39)}…` : r.pattern,
        String(r.instructions),
        String(r.width),
        String(r.charTicks),
        r.nsPerChar.toFixed(1),
        r.width === 0 ? '—' : (r.nsPerChar / r.width).toFixed(1),
        (r.nsPerChar / r.charTicks).toFixed(1),
      ]),
    ],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** Issue 17's hostile patterns on ~700 KB through the engine: compile (refused) or validate (maxWork), in ms. */
export function measureHostile(): { readonly pattern: string; readonly outcome: string; readonly ms: number }[] {
  const cases: [string, string][] = [
    ['(.{1000})+z', `${'y'.repeat(700_000)}z`],
    ['^[ab]*a[ab]{999}$', scrambled(['a', 'b'], 701_000, '')],
    ['(\\p{L}|\\p{N}|\\p{S}){900}!', `${scrambled(mixed, 700_000, '')}!`],
    ['(.{700})+z', `${'y'.repeat(700_000)}z`],
  ];
  return cases.map(([pattern, input]) => {
    const started = performance.now();
    const compiled = compileSchema({ type: 'string', pattern });
    let outcome: string;
    if (compiled.status === 'refused') outcome = `refused: ${compiled.refusal.code}`;
    else {
      const verdict = compiled.schema.validate(input);
      outcome = verdict.status === 'valid' ? 'valid' : `invalid: ${verdict.issues.map((issue) => issue.keyword).join(', ')}`;
    }
    return { pattern, outcome, ms: performance.now() - started };
  });
}

if (process.argv[1]?.endsWith('pattern-cost.ts')) {
  console.log(programCostTable(measureProgramCost()));
  console.log();
  for (const row of measureHostile()) console.log(`${row.pattern}: ${row.outcome} in ${row.ms.toFixed(1)} ms`);
}
