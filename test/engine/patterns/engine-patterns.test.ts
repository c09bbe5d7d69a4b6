// Patterns run in time linear in the input (issue #9): ReDoS families finish with the right verdict, what RE2
// cannot run is refused at compile time, and the translation keeps ECMA-262 `u`-flag semantics.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate as cfworkerValidate } from '@cfworker/json-schema';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { linearPatternsAvailable, withLinearPatterns } from '../../../src/engine/adapters/cfworker/linear-regexp-scope.ts';
import { compileSchema } from '../../../src/engine/index.ts';
import { boundDfa, compileLinearPattern, compileRe2Pattern } from '../../../src/engine/patterns/linear-pattern.ts';
import { translatePattern } from '../../../src/engine/patterns/translate-pattern.ts';
import { resolvePolicy } from '../../../src/engine/policy/policy.ts';
import { accept, refuse } from '../../fixtures/engine/helpers.ts';

const NativeRegExp = RegExp;

/** Patterns are charged per character times their program (maxWork); these tests are about time, so raise it. */
const roomy = resolvePolicy({ maxWork: 10_000_000 });

/**
 * The pattern reaches RE2, never the backtracker: what makes the matches below linear (a backtracker would not finish
 * them within the test's timeout). Time itself is measured by `npm run bench`, never asserted here.
 */
function runsOnRe2(pattern: string): void {
  const linear = compileLinearPattern(pattern);
  assert.ok(linear.ok);
  assert.ok(!(linear.matcher instanceof NativeRegExp), `${pattern} must not run on the native backtracker`);
}

describe('ReDoS families finish with the right verdict', () => {
  const a = (n: number) => 'a'.repeat(n);
  const cases: [string, string, boolean][] = [
    ['^(a+)+$', `${a(32)}!`, false],
    ['^(a+)+$', `${a(200_000)}!`, false],
    ['^(a+)+$', a(200_000), true],
    ['(a|a)*$', `${a(100_000)}!`, true],
    ['^(a|a)*$', `${a(100_000)}!`, false],
    ['(\\w+\\s?)*$', `${'ab '.repeat(50_000)}!`, true],
    ['^(\\w+\\s?)*$', `${'ab '.repeat(50_000)}!`, false],
    ['^(a|aa)+$', `${a(100_000)}!`, false],
    ['\\s*x', ' '.repeat(200_000), false],
    ['\\s*x', `${' '.repeat(200_000)}x`, true],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', `${'aaaaaaaaaaaaaaaaaaaaaaaa'.repeat(1000)}!`, false],
  ];
  for (const [pattern, input, expected] of cases) {
    it(`${pattern} on ${input.length} characters is ${expected ? 'valid' : 'invalid'}`, () => {
      runsOnRe2(pattern);
      const schema = accept({ type: 'string', pattern }, { policy: roomy });
      assert.equal(schema.validate(input).status === 'valid', expected);
    });
  }

  it('runs patternProperties keys in linear time', () => {
    runsOnRe2('^(a+)+$');
    const schema = accept({ type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' } } });
    assert.equal(schema.validate({ [`${a(5000)}!`]: 'not matched, so free' }).status, 'valid');
    const verdict = schema.validate({ [a(5000)]: 'matched, so an integer is wanted', [`${a(40)}!`]: 1 });
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(verdict.status === 'invalid' && verdict.issues.map((issue) => issue.keyword), ['type']);
  });

  it('runs propertyNames patterns in linear time', () => {
    runsOnRe2('^(a|aa)+$');
    const schema = accept({ type: 'object', propertyNames: { pattern: '^(a|aa)+$' } });
    assert.equal(schema.validate({ [a(5000)]: 1 }).status, 'valid');
    const verdict = schema.validate({ [`${a(5000)}!`]: 1, ok: 2 });
    assert.equal(verdict.status, 'invalid');
    assert.equal(verdict.status === 'invalid' && verdict.issues.length, 2);
  });

  it('leaves the native RegExp in place after validating', () => {
    accept({ type: 'string', pattern: '^(a+)+$' }).validate('aaa');
    assert.equal(globalThis.RegExp, NativeRegExp);
  });
});

describe('memory', () => {
  it("bounds each pattern's DFA state cache (re2js internals, checked so an upgrade that moves them fails here)", () => {
    // Sixteen-character windows after an `a`: a DFA wants thousands of states for this on random a/b text.
    const budget = 32 * 1024;
    const fresh = RE2JS.compile('a[ab]{15}a[ab]{15}c');
    assert.equal(boundDfa(fresh, budget), true);
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed % 2 === 0 ? 'a' : 'b';
    };
    const text = Array.from({ length: 100_000 }, next).join('');
    assert.equal(fresh.test(`${text}c`), /a[ab]{15}a[ab]{15}c/u.test(`${text}c`));
    const dfa = (fresh as unknown as { re2Input: { lazyDFA: { stateBudget: number; memBudget: number } } }).re2Input.lazyDFA;
    assert.equal(dfa.stateBudget, budget);
    assert.ok(dfa.memBudget >= 0 && dfa.memBudget <= budget);
  });
});

describe('refusals (invalid_pattern)', () => {
  const cases: [string, RegExp][] = [
    ['^(a+)\\1$', /backreference \\1/],
    ['(?<x>a)\\k<x>', /backreference \\k<…>/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['a{1001}', /repetition count over 1000 \{1001\}/],
    ['a{2,5000}', /repetition count over 1000/],
    ['(a{100}){100}', /a repetition that compiles to about 10\d{3} instructions \(over 5000\)/],
    ['(?:[a-z]{2,5}-){1000}', /a repetition that compiles to about \d+ instructions \(over 5000\)/],
    ['\\p{Emoji}', /Unicode property \\p\{Emoji\}/],
    ['\\p{scx=Greek}', /Unicode property \\p\{scx=Greek\}/],
    ['\\P{C}', /Unicode property \\P\{C\}/],
  ];
  for (const [pattern, construct] of cases) {
    it(`refuses ${pattern} and names the construct`, () => {
      const { code, message } = refuse({ type: 'string', pattern });
      assert.equal(code, 'invalid_pattern');
      assert.match(message, /^#\/pattern: /);
      assert.match(message, construct);
      assert.match(message, /which the linear-time matcher cannot run/);
    });
  }

  it('refuses in patternProperties keys and propertyNames too', () => {
    assert.match(refuse({ patternProperties: { 'a(?=bc)d': {} } }).message, /^#\/patternProperties: .*lookahead/);
    assert.match(
      refuse({ properties: { a: { propertyNames: { pattern: '(.)\\1' } } } }).message,
      /propertyNames\/pattern: .*backreference/,
    );
  });

  it('still refuses what is not a regular expression at all', () => {
    assert.deepEqual(refuse({ pattern: '[a-' }), {
      code: 'invalid_pattern',
      message: '#/pattern: "[a-" is not a valid regular expression (u flag)',
    });
  });

  it('refuses every pattern when the RegExp global cannot be replaced (frozen intrinsics)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'RegExp') as PropertyDescriptor;
    Object.defineProperty(globalThis, 'RegExp', { ...descriptor, writable: false });
    try {
      assert.equal(linearPatternsAvailable(), false);
      assert.throws(() => withLinearPatterns(() => 1), { code: 'LINEAR_PATTERNS_UNAVAILABLE' });
      assert.deepEqual(refuse({ pattern: '^a$' }), {
        code: 'invalid_pattern',
        message: '#/pattern: this runtime does not allow the linear-time matcher',
      });
      assert.equal(compileSchema({ type: 'string' }).status, 'accepted', 'schemas without patterns are unaffected');
    } finally {
      Object.defineProperty(globalThis, 'RegExp', descriptor);
    }
    assert.equal(linearPatternsAvailable(), true);
  });
});

describe('the RegExp scope', () => {
  it('restores the native RegExp when the run throws, and when scopes nest', () => {
    assert.throws(
      () =>
        withLinearPatterns(() => {
          assert.notEqual(globalThis.RegExp, NativeRegExp);
          withLinearPatterns(() => assert.notEqual(globalThis.RegExp, NativeRegExp));
          assert.notEqual(globalThis.RegExp, NativeRegExp);
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(globalThis.RegExp, NativeRegExp);
  });

  it('throws SyntaxError for what the native parser rejects, and accepts lookaround for syntax checks', () => {
    // What cfworker does: `new RegExp(source, 'u')` with the scope's RegExp (never a literal).
    const scoped = (source: string) => new globalThis.RegExp(source, 'u');
    withLinearPatterns(() => {
      assert.throws(() => scoped('[a-'), SyntaxError);
      assert.throws(() => scoped('a{2,1}'), SyntaxError);
      const lookahead = scoped('a(?=b)');
      assert.throws(() => lookahead.test('ab'), /linear-time matcher cannot run/);
      assert.equal(scoped('^(a+)+$').test(`${'a'.repeat(64)}!`), false);
    });
  });

  it("keeps cfworker's format: regex working inside the scope", () => {
    withLinearPatterns(() => {
      assert.equal(cfworkerValidate('[a-', { format: 'regex' }, '2020-12').valid, false);
      assert.equal(cfworkerValidate('^a(?=b)\\1?$', { format: 'regex' }, '2020-12').valid, false);
      assert.equal(cfworkerValidate('^a(?=b)', { format: 'regex' }, '2020-12').valid, true);
      assert.equal(cfworkerValidate('^[a-z]+$', { format: 'regex' }, '2020-12').valid, true);
    });
    assert.equal(globalThis.RegExp, NativeRegExp);
  });
});

describe('translation keeps ECMA semantics', () => {
  /** Each pattern with strings that probe one translation rule; the verdict must be the native one. */
  const probes: [string, string[]][] = [
    [
      '^\\s$',
      [
        '\t',
        '\n',
        '\v',
        '\f',
        '\r',
        ' ',
        '\u00a0',
        '\u1680',
        '\u2000',
        '\u200a',
        '\u200b',
        '\u2028',
        '\u202f',
        '\u205f',
        '\u3000',
        '\ufeff',
        '\u0085',
        'x',
      ],
    ],
    ['^\\S$', [' ', '\u00a0', '\ufeff', '\u0085', 'x', '😀']],
    ['^[\\S]+$', ['ab', 'a b', 'a\u3000b', '😀']],
    ['^[^\\S\\n]+$', [' \t', ' \n', 'a']],
    ['^.$', ['a', '\n', '\r', '\u2028', '\u2029', '\u0085', '😀', '\ud83d']],
    ['^\\d\\w\\b', ['1a ', '٣a ', '1é', '1a']],
    ['x$', ['x', 'x\n', 'xa']],
    ['^[^]$', ['a', '\n', '😀']],
    ['[]', ['', 'a']],
    ['^[\\b]$', ['\b', 'b']],
    ['^[\\d\\s-]+$', ['1 -2', '1_2']],
    ['^[\\]\\-\\\\]+$', [']-\\', 'a']],
    ['^\\cJ\\0$', ['\n\0', 'J0']],
    ['^\\u{1F600}$', ['😀', '\ud83d']],
    ['^\\uD83D\\uDE00$', ['😀', '\ud83d\ude00', '\ud83d']],
    ['^[😀-😂]$', ['😁', '😃', '\ud83d']],
    ['^\\x41\\/\\.$', ['A/.', 'A/x']],
    ['^(?<word>\\w+)@', ['abc@x', '@x']],
    ['^a+?b$', ['aab', 'ab', 'b']],
    ['^\\p{L}+$', ['abcé', 'Σω', '中', '1']],
    ['^\\p{Letter}\\P{L}$', ['a1', 'ab']],
    ['^\\p{Script=Greek}+$', ['αβγ', 'abc']],
    ['^\\p{sc=Grek}$', ['α', 'a']],
    ['^\\p{gc=Lu}\\p{Ll}$', ['Ab', 'ab']],
    ['^\\p{General_Category=Lu}$', ['A', 'a']],
    ['^\\p{LC}$', ['ǅ', 'a', '中']],
    ['^\\P{LC}$', ['ǅ', 'a', '中']],
    ['^[\\p{Lu}\\d]+$', ['A1', 'a']],
    ['^[\\P{Lu}]$', ['A', 'a']],
    ['^\\p{ASCII}+$', ['abc', 'é']],
    ['^[^\\p{ASCII}]$', ['a', 'é']],
    ['\\Bfoo', ['afoo', ' foo']],
  ];
  for (const [pattern, inputs] of probes) {
    it(`${pattern} agrees with the native RegExp`, () => {
      const linear = compileRe2Pattern(pattern);
      assert.ok(linear.ok, `${pattern} is supported`);
      const native = new RegExp(pattern, 'u');
      for (const input of inputs) assert.equal(linear.matcher.test(input), native.test(input), `${pattern} on ${JSON.stringify(input)}`);
    });
  }

  it('rewrites only what RE2 reads differently', () => {
    const translated = translatePattern('^(a|b)*\\s$', () => true);
    assert.deepEqual(
      translated.ok && translated.source,
      '^(?:a|b)*[\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}-\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}]\\z',
    );
  });

  it('keeps the native engine only for patterns a backtracker runs in linear time', () => {
    const simple = (pattern: string) => {
      const translated = translatePattern(pattern, () => true);
      return translated.ok && translated.simple;
    };
    assert.equal(simple('^[a-zA-Z0-9_-]{1,64}$'), true);
    assert.equal(simple('foo\\.bar'), true);
    assert.equal(simple('[a-z]+$'), false, 'unanchored: one quantifier from every start position');
    assert.equal(simple('^a+b+$'), false, 'two quantifiers');
    assert.equal(simple('^(ab)+$'), false, 'a quantified group');
    assert.equal(simple('^a|b$'), false, 'alternation');
  });
});

/**
 * Real patterns (JSON-Schema-Test-Suite, bench and real-world fixtures, common ones from published schemas),
 * each with a string it matches; generated inputs are that string mutated, so both verdicts come up.
 */
const corpus: [pattern: string, example: string][] = [
  // JSON-Schema-Test-Suite (draft2020-12 and optional/ecmascript-regex)
  ['^v', 'v1'],
  ['^á', 'ábc'],
  ['^abc$', 'abc'],
  ['^\\t$', '\t'],
  ['^\\cC$', '\u0003'],
  ['^\\cc$', '\u0003'],
  ['^\\d$', '7'],
  ['^\\D$', 'x'],
  ['^\\w$', '_'],
  ['^\\W$', '-'],
  ['^\\s$', '\u2028'],
  ['^\\S$', 'é'],
  ['\\p{Letter}cole', 'école'],
  ['\\wcole', 'ecole'],
  ['[a-z]cole', 'ecole'],
  ['^\\d+$', '2026'],
  ['^\\p{digit}+$', '٣4'],
  ['^🐲*$', '🐲🐲'],
  ['^a*$', 'aaa'],
  ['a+', 'xa'],
  ['f.*o', 'fzzo'],
  ['a*', ''],
  ['aaa*', 'aa'],
  ['[0-9]{2,}', 'x12'],
  ['X_', 'aX_'],
  ['^.*bar$', 'foobar'],
  ['f.o', 'f😀o'],
  ['^[a-m]', 'k'],
  ['^\\p{Letter}+$', 'Σωé'],
  ['^[a-z]+-[a-z]+[0-9]-[a-z]$', 'ab-cd1-e'],
  // bench/ and test/fixtures/real-world/
  ['^\\+?[0-9 ()-]{6,32}$', '+1 (555) 123-4567'],
  ['^[0-9]{1,2}$', '11'],
  ['^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$', 'America/New_York'],
  ['^[a-z]+/[a-z0-9.+-]+$', 'application/vnd.api+json'],
  ['^[a-z]{2,4}_[0-9A-Za-z]{8,32}$', 'cus_AbC12345'],
  ['^[a-zA-Z_][a-zA-Z0-9_]{0,62}$', 'my_alias'],
  ['^[a-z][a-z0-9-]*$', 'my-name-2'],
  // common in published tool schemas
  ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', 'a@b.co'],
  ['^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$', 'first.last@example.org'],
  ['^[a-z0-9]+(?:-[a-z0-9]+)*$', 'my-slug-1'],
  ['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-30'],
  ['^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$', '2026-11-30T17:33:00.5+01:00'],
  ['^[0-9a-fA-F]+$', '00ffAB'],
  ['^#?([0-9a-f]{3}|[0-9a-f]{6})$', '#a0b'],
  ['^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$', '123e4567-e89b-42d3-a456-426614174000'],
  ['^[a-zA-Z0-9_-]{1,64}$', 'tool_name-1'],
  ['^https?://[^\\s/$.?#].[^\\s]*$', 'https://example.org/a?b'],
  ['^\\S+$', 'abc'],
  ['^\\s*$', ' \t\ufeff'],
  ['\\S', ' x'],
  ['.+', 'x'],
  ['^[\\s\\S]*$', 'a\nb'],
  ['\\p{L}', '1a'],
  ['^\\p{Lu}\\p{Ll}+$', 'Σωω'],
  ['^[\\p{L}\\p{N} _-]+$', 'Éa 1_-'],
  ['\\bword\\b', 'a word.'],
  ['^(?<user>\\w+)@(?<host>[\\w.]+)$', 'me@host.org'],
  ['^a+?b', 'aab'],
  ['^[^\\n\\r]*$', 'one line'],
  ['^\\S(.*\\S)?$', 'a b'],
  ['^\\+[1-9]\\d{1,14}$', '+4915112345678'],
];

/** Characters where RE2 and ECMA could part: whitespace, line terminators, astral, lone surrogates, non-ASCII. */
const tricky = [
  ...'azAZ09_-.@/:+#T ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\0',
  '\b',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200b',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  'é',
  'ß',
  'Σ',
  'α',
  'Ж',
  '中',
  '٣',
  'ǅ',
  '😀',
  '🐲',
  '𝒳',
  '\ud83d',
  '\ude00',
];

/** `example` with up to three characters replaced, inserted or deleted, or a string of tricky characters. */
function mutated(example: string): fc.Arbitrary<string> {
  const unit = fc.constantFrom(...tricky);
  const edit = fc.tuple(fc.constantFrom('replace', 'insert', 'delete'), fc.nat(), unit);
  const edited = fc.array(edit, { maxLength: 3 }).map((edits) => {
    const chars = [...example];
    for (const [kind, at, char] of edits) {
      const i = chars.length === 0 ? 0 : at % (chars.length + (kind === 'insert' ? 1 : 0));
      if (kind === 'insert') chars.splice(i, 0, char);
      else if (kind === 'replace') chars.splice(i, 1, char);
      else chars.splice(i, 1);
    }
    return chars.join('');
  });
  return fc.oneof(edited, fc.string({ unit, maxLength: 16 }));
}

describe('agrees with the native RegExp on real patterns (property-based)', () => {
  /** Patterns for which the generated strings reached both verdicts (else agreement would prove little). */
  const bothVerdicts = new Set<string>();
  for (const [pattern, example] of corpus) {
    it(`agrees on ${pattern}`, () => {
      const linear = compileRe2Pattern(pattern);
      assert.ok(linear.ok, `${pattern} is supported`);
      const native = new RegExp(pattern, 'u');
      assert.equal(native.test(example), true, `the example ${example} matches`);
      const seen = new Set<boolean>();
      fc.assert(
        fc.property(mutated(example), (input) => {
          const verdict = native.test(input);
          seen.add(verdict);
          return linear.matcher.test(input) === verdict;
        }),
        { seed: 20261130, numRuns: 300 },
      );
      if (seen.size === 2) bothVerdicts.add(pattern);
    });
  }

  it('reached both verdicts for most patterns', () => {
    assert.ok(bothVerdicts.size >= corpus.length * 0.9, `${bothVerdicts.size} of ${corpus.length}`);
  });

  it('supports every pattern of the corpus through the engine', () => {
    for (const [pattern] of corpus) accept({ type: 'string', pattern });
  });
});
