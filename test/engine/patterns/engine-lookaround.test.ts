// Lookaround without backtracking (issue 20, docs/decisions/019-lookaround.md): the lookarounds real generators emit
// are decomposed into lookaround-free patterns run in linear time, with exactly ECMA-262's answers; the rest is
// refused and says why. Also: the native fast path keeps away from V8's `\b`/`\B` bug.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileSchema } from '../../../src/engine/index.ts';
import { compileLinearPattern, compileRe2Pattern, estimatedInstructions } from '../../../src/engine/patterns/linear-pattern.ts';
import { decomposeLookaround } from '../../../src/engine/patterns/lookaround.ts';
import { resolvePolicy } from '../../../src/engine/policy/policy.ts';
import { accept, refuse } from '../../fixtures/engine/helpers.ts';

const NativeRegExp = RegExp;

function matcher(pattern: string) {
  const linear = compileLinearPattern(pattern);
  if (!linear.ok) assert.fail(`${pattern}: ${linear.reason}`);
  return linear;
}

describe('the native fast path keeps off what V8 gets wrong', () => {
  it('\\B does not match between the halves of a surrogate pair (V8 answers true for "b🙏b")', () => {
    // ECMA-262 reads a u-flag subject by code point: b|🙏|b has word boundaries at 0, 1, 3 and 4 and no other position.
    assert.equal(matcher('\\B').matcher.test('b🙏b'), false);
    assert.ok(!(matcher('\\B').matcher instanceof NativeRegExp), '\\B runs on RE2');
    assert.ok(!(matcher('\\b').matcher instanceof NativeRegExp), '\\b runs on RE2');
    assert.ok(!(matcher('^a\\b').matcher instanceof NativeRegExp), 'a pattern with \\b never takes the fast path');
    assert.equal(accept({ type: 'string', pattern: '\\B' }).validate('b🙏b').status, 'invalid');
    assert.equal(accept({ type: 'string', pattern: '\\B' }).validate('🙏').status, 'valid', 'between start and a non-word character');
    assert.equal(accept({ type: 'string', pattern: '\\b' }).validate('🙏').status, 'invalid');
  });

  it('keeps the fast path for what has no word boundary', () => {
    assert.ok(matcher('^[a-z]{1,64}$').matcher instanceof NativeRegExp);
  });
});

/** Seeded strings near a pattern: generated from each lookaround-free piece, examples, and their mutations. */
function stringsFor(pattern: string, examples: readonly string[], count: number, seed: number): string[] {
  const decomposed = decomposeLookaround(pattern, () => true);
  const sources: string[] = [];
  if (decomposed.ok) {
    const { plain, conditional } = decomposed.plan;
    if (plain !== undefined) sources.push(plain);
    for (const { main, checks } of conditional) sources.push(main, ...checks.map((c) => c.source));
  }
  const generators: fc.Arbitrary<string>[] = [fc.constantFrom(...examples, '')];
  for (const source of sources) {
    try {
      generators.push(fc.stringMatching(new NativeRegExp(source.replace(/\$$/, '$'), 'u'), { size: 'small' }));
    } catch {
      // A piece fast-check cannot generate from: the examples and mutations still cover it.
    }
  }
  const literals = [...new Set(pattern.replace(/\\[pPux]\{?[0-9A-Za-z_=]*\}?|\\./g, '').split(''))].filter(
    (c) => !'()[]{}|?*+^$'.includes(c),
  );
  const alphabet = [...literals, 'a', 'Z', '0', '9', '.', '-', '_', ' ', '\n', '/', '🙏', '\ud800', '\u00e9'];
  const base = fc.oneof(...generators);
  const edit = fc.tuple(fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('insert', 'replace', 'delete'));
  const mutated = fc.tuple(base, fc.array(edit, { maxLength: 3 })).map(([s, edits]) => {
    let out = s;
    for (const [at, c, op] of edits) {
      const i = out.length === 0 ? 0 : at % (out.length + (op === 'insert' ? 1 : 0));
      if (op === 'insert') out = out.slice(0, i) + c + out.slice(i);
      else if (op === 'replace') out = out.slice(0, i) + c + out.slice(i + 1);
      else out = out.slice(0, i) + out.slice(i + 1);
    }
    return out;
  });
  return fc.sample(fc.oneof(base, mutated, mutated), { numRuns: count, seed });
}

/** The measured set (docs/decisions/019-lookaround.md): each admitted or refused for the stated reason. */
const realPatterns: readonly {
  readonly source: string;
  readonly pattern: string;
  readonly examples: readonly string[];
  readonly refused?: RegExp;
  readonly maxLength?: number;
}[] = [
  {
    source: 'zod 4 z.iso.duration()',
    pattern: '^P(?:(\\d+W)|(?!.*W)(?=\\d|T\\d)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+([.,]\\d+)?S)?)?)$',
    examples: ['P1W', 'P1Y2M3DT4H5M6.5S', 'PT1H', 'P1D', 'PT', 'P', 'P1WT1H', 'P1Y1W', 'P1DT'],
  },
  {
    source: 'zod 4 extendedDuration, zod 3 .duration()',
    pattern:
      '^[-+]?P(?!$)(?:(?:[-+]?\\d+Y)|(?:[-+]?\\d+[.,]\\d+Y$))?(?:(?:[-+]?\\d+M)|(?:[-+]?\\d+[.,]\\d+M$))?(?:(?:[-+]?\\d+W)|(?:[-+]?\\d+[.,]\\d+W$))?(?:(?:[-+]?\\d+D)|(?:[-+]?\\d+[.,]\\d+D$))?(?:T(?=[\\d+-])(?:(?:[-+]?\\d+H)|(?:[-+]?\\d+[.,]\\d+H$))?(?:(?:[-+]?\\d+M)|(?:[-+]?\\d+[.,]\\d+M$))?(?:[-+]?\\d+(?:[.,]\\d+)?S)?)??$',
    examples: ['P1Y', '-P1.5Y', 'P1W2D', 'PT-1H', 'P', 'PT', 'P1DT', '+P1Y2M3W4DT5H6M7,5S', 'P1.5Y2M'],
  },
  {
    source: 'zod 4 z.hostname()',
    pattern: '^(?=.{1,253}\\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$',
    examples: [
      'example.com',
      'a',
      'a.',
      `${'a'.repeat(63)}.com`,
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(126)}a`,
      `${'a.'.repeat(126)}ab`,
      `${'a.'.repeat(127)}`,
      '-a.com',
      'a..b',
    ],
  },
  {
    source: 'zod 4 domain',
    pattern: '^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}$',
    examples: ['example.com', 'a.bc', `${'a.'.repeat(125)}com`, `${'a.'.repeat(125)}co`, `${'a.'.repeat(126)}com`, 'com'],
  },
  {
    source: 'zod 4 iban',
    pattern: '^[A-Z]{2}(?!00|01|99)\\d{2}[A-Z0-9]{11,30}$',
    examples: ['DE89370400440532013000', 'DE00370400440532013000', 'DE99370400440532013000', 'GB82WEST12345698765432'],
  },
  {
    source: 'zod 4 z.emoji()',
    pattern: '^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$',
    examples: ['🙏', '👍🏽', '🇫🇷', '1\ufe0f\u20e3', '1', '#', '\u200d', '🙏a', '©'],
  },
  {
    source: 'zod-to-json-schema email (zod 3)',
    pattern: "^(?!\\.)(?!.*\\.\\.)([a-zA-Z0-9_'+\\-\\.]*)[a-zA-Z0-9_+-]@([a-zA-Z0-9][a-zA-Z0-9\\-]*\\.)+[a-zA-Z]{2,}$",
    examples: ['a@b.co', '.a@b.co', 'a..b@c.de', "o'neil+x@ex-ample.org", 'a.@b.co'],
  },
  {
    source: 'zod-to-json-schema, a regex with the m flag (/^abc$/m)',
    pattern: '(^|(?<=[\\r\\n]))abc($|(?=[\\r\\n]))',
    examples: ['abc'],
    refused: /lookbehind \(\?<= or \(\?<! not at a fixed position/,
  },
  {
    source: 'password: an upper-case letter and a digit, 8 or more',
    pattern: '^(?=.*[A-Z])(?=.*\\d).{8,}$',
    examples: ['Passw0rdx', 'password1', 'PASSWORDX', 'Ab1', 'Ab1\nxxxxxx'],
  },
  {
    source: 'password: lower, upper, digit and symbol',
    pattern: '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[@$!%*?&])[A-Za-z\\d@$!%*?&]{8,}$',
    examples: ['Passw0rd!', 'Password1', 'passw0rd!', 'Pa0!'],
  },
  {
    source: 'password: 8 to 32 with a digit, lower and upper',
    pattern: '^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,32}$',
    examples: ['Passw0rd', 'passw0rd', `Aa1${'x'.repeat(29)}`, `Aa1${'x'.repeat(30)}`],
  },
  {
    source: 'git branch name',
    pattern: '^(?!.*\\.\\.)(?!/)[^\\s~^:?*\\[\\\\]+(?<!/)$',
    examples: ['feature/x', '/x', 'x/', 'a..b', 'main'],
  },
  {
    source: 'git check-ref-format',
    pattern: '^(?!/|.*([/.]\\.|//|@\\{|\\\\))[^\\x00-\\x20\\x7f~^:?*\\[]+(?<!\\.lock|[/.])$',
    examples: ['refs/heads/main', 'a.lock', 'a/.b', 'a//b', 'a@{b', 'x.', 'ok', 'a\\b'],
  },
  { source: 'slug without a leading or trailing hyphen', pattern: '^(?!-)[a-z0-9-]+(?<!-)$', examples: ['my-slug', '-x', 'x-', 'x'] },
  {
    source: 'user name (3-20, no leading, trailing or doubled _ .)',
    pattern: '^(?=.{3,20}$)(?![_.])(?!.*[_.]{2})[a-zA-Z0-9._]+(?<![_.])$',
    examples: ['john.doe', '_john', 'john_', 'jo__hn', 'jo', 'j.o_h'],
  },
  { source: 'no leading or trailing whitespace', pattern: '^(?!\\s)[\\s\\S]*(?<!\\s)$', examples: ['a b', ' a', 'a ', '', 'a', '\u3000a'] },
  { source: 'not blank', pattern: '^(?!\\s*$).+', examples: ['  x', '   ', '', 'x', ' \n'] },
  {
    source: 'not a reserved Windows file name',
    pattern: '^(?!(?:CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(?:\\.[^.]*)?$)[^<>:"/\\\\|?*\\x00-\\x1F]+$',
    examples: ['CON', 'con.txt', 'CON.txt', 'file.txt', 'COM1', 'CON.a.b'],
  },
  {
    source: 'S3 bucket name',
    pattern: '^(?!xn--)(?!.*-s3alias$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
    examples: ['my-bucket', 'xn--abc', 'x-s3alias', 'ab', 'abc'],
  },
  {
    source: 'not an IPv4 address, else a DNS label chain',
    pattern: '(?!^(\\d{1,3}\\.){3}\\d{1,3}$)(^[a-z0-9]([a-z0-9-]*(\\.[a-z0-9])?)*$)',
    examples: ['1.2.3.4', 'a.b', 'a-b.c1', '1.2.3.a'],
    maxLength: 16,
  }, // the native reference backtracks exponentially
  { source: 'a date whose year is not 0000', pattern: '^(?!0000)\\d{4}-\\d{2}-\\d{2}$', examples: ['2024-01-01', '0000-01-01'] },
  {
    source: 'a word not followed by a digit, anywhere',
    pattern: 'foo(?!\\d)',
    examples: ['foo'],
    refused: /lookahead \(\?= or \(\?! at the end of a match that does not end with \$/,
  },
  {
    source: 'digits after a dollar sign, anywhere',
    pattern: '(?<=\\$)\\d+(\\.\\d\\d)?',
    examples: ['$1'],
    refused: /lookbehind \(\?<= or \(\?<! not at a fixed position/,
  },
];

describe('lookaround that real generators emit', () => {
  for (const { source, pattern, examples, refused, maxLength } of realPatterns) {
    if (refused !== undefined) {
      it(`refuses ${source}, and says why`, () => {
        const { code, message } = refuse({ type: 'string', pattern });
        assert.equal(code, 'invalid_pattern');
        assert.match(message, refused);
        assert.match(message, /which the linear-time matcher cannot run/);
      });
      continue;
    }
    it(`admits ${source} with the native RegExp's answer on seeded strings`, () => {
      const native = new NativeRegExp(pattern, 'u');
      const linear = matcher(pattern).matcher;
      const re2 = compileRe2Pattern(pattern);
      assert.ok(re2.ok);
      let matched = 0;
      let t = performance.now();
      const strings = [...examples, ...stringsFor(pattern, examples, 2000, 20)].filter(
        (s) => s.length <= (maxLength ?? Number.POSITIVE_INFINITY),
      );
      if (process.env.LA_PROFILE) console.log('gen', performance.now() - t);
      t = performance.now();
      for (const s of strings) {
        const want = native.test(s);
        if (want) matched++;
        assert.equal(linear.test(s), want, `${JSON.stringify(s)} against ${pattern}`);
        assert.equal(re2.matcher.test(s), want, `${JSON.stringify(s)} against ${pattern} (RE2 only)`);
      }
      if (process.env.LA_PROFILE) console.log('match', performance.now() - t);
      assert.ok(matched >= 25 && strings.length - matched >= 25, `both sides hit: ${matched} of ${strings.length} matched`);
      assert.equal(
        accept({ type: 'string', pattern }).validate(examples[0]).status,
        native.test(examples[0] as string) ? 'valid' : 'invalid',
      );
    });
  }
});

describe('the emoji properties z.emoji() uses', () => {
  it("are the runtime's own tables, on every code point", () => {
    // The short names every 61st code point: they share the long names' table.
    for (const [name, step] of [
      ['Extended_Pictographic', 1],
      ['Emoji_Component', 1],
      ['Regional_Indicator', 1],
      ['ExtPict', 61],
      ['EComp', 61],
      ['RI', 61],
    ] as const) {
      const native = new NativeRegExp(`^\\p{${name}}$`, 'u');
      const re2 = compileRe2Pattern(`^\\p{${name}}$`);
      assert.ok(re2.ok, name);
      for (let cp = 0; cp <= 0x10ffff; cp += step) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const s = String.fromCodePoint(cp);
        if (re2.matcher.test(s) !== native.test(s)) assert.fail(`${name} differs at U+${cp.toString(16)}`);
      }
    }
  });
});

describe('what stays refused, and why', () => {
  const cases: [string, RegExp][] = [
    ['a(?=bc)d', /a lookahead \(\?= or \(\?! not at a fixed position/],
    ['^a+(?=bc)', /a lookahead \(\?= or \(\?! not at a fixed position/],
    ['^a+(?!bc)c', /a lookahead \(\?= or \(\?! not at a fixed position/],
    ['x(?<=ab)c', /a lookbehind \(\?<= or \(\?<! not at a fixed position/],
    ['^(?<!a)b', /a lookbehind \(\?<= or \(\?<! not at a fixed position/],
    ['^(?:(?=a)\\w)+$', /a lookaround inside a repetition/],
    ['^(?:a(?=b))*b$', /a lookaround inside a repetition/],
    ['^(?=(a))\\1', /backreference \\1/],
    ['^(?=\\p{Emoji})', /Unicode property \\p\{Emoji\}/],
    ['^(?=(?i:a))', /inline modifier/],
    ['^a+(?=\\p{L})(?:\\p{Lu}x)?$', /one-character lookahead whose Unicode property cannot be compared/],
  ];
  for (const [pattern, why] of cases) {
    it(`refuses ${pattern}`, () => {
      try {
        new NativeRegExp(pattern, 'u');
      } catch {
        return; // not a u-flag pattern in this runtime (inline modifiers): refused as a syntax error anyway
      }
      const { message } = refuse({ type: 'string', pattern });
      assert.match(message, why);
      assert.match(message, /which the linear-time matcher cannot run$/);
    });
  }

  it('bounds the rewriting of a long pattern, so it cannot turn quadratic', () => {
    const started = performance.now();
    for (const pattern of [`^${'(?=a)'.repeat(5000)}a$`, `^a*(?=b)${'(?:c)?'.repeat(3000)}b$`, `^a*(?=b)${'\\b'.repeat(5000)}(?:b|c)$`]) {
      assert.match(refuse({ pattern }).message, /lookarounds that take over 1024 steps or \d+ copies to decompose/);
    }
    assert.ok(performance.now() - started < 5000);
  });

  it('bounds what one pattern may decompose into', () => {
    const many = `^${'(?:(?=a)b|c)?'.repeat(8)}$`;
    assert.match(refuse({ pattern: many }).message, /lookarounds that (decompose into|take over)/);
  });
});

describe('lookaround runs in linear time and is charged for every piece', () => {
  it('answers a backtracking family inside a lookahead in milliseconds', () => {
    const started = performance.now();
    const linear = matcher('^(?=(a+)+$)a');
    assert.equal(linear.matcher.test(`${'a'.repeat(100_000)}!`), false);
    assert.equal(linear.matcher.test('a'.repeat(100_000)), true);
    const password = matcher('^(?=.*[A-Z])(?=.*\\d).{8,}$');
    assert.equal(password.matcher.test('a'.repeat(200_000)), false);
    assert.ok(performance.now() - started < 2000);
  });

  it('charges the sum of its pieces, each run at most once per string', () => {
    const pieces = ['^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$', '^[\\s\\S]{2}(?:00|01|99)'].map(matcher);
    const whole = matcher('^[A-Z]{2}(?!00|01|99)\\d{2}[A-Z0-9]{11,30}$');
    assert.equal(
      whole.cost.charTicks,
      pieces.reduce((sum, p) => sum + p.cost.charTicks, 0),
    );
    assert.equal(
      whole.cost.instructions,
      pieces.reduce((sum, p) => sum + p.cost.instructions, 0),
    );
    assert.equal(whole.cost.programs, 2);
    assert.equal(estimatedInstructions('^[A-Z]{2}(?!00|01|99)\\d{2}[A-Z0-9]{11,30}$'), 67);
  });

  it('still refuses a decomposition too costly for a 1,024-character string within maxWork', () => {
    const result = compileSchema(
      { type: 'string', pattern: '^(?=.{1,253}\\.?$)[a-z](?:[a-z-]{0,61}[a-z])?$' },
      { policy: resolvePolicy({ maxWork: 2000 }) },
    );
    assert.equal(result.status, 'refused');
    assert.match((result as { refusal: { message: string } }).refusal.message, /work units per character/);
  });
});

/** Random patterns of the admitted shapes (seeded), against the native RegExp on short strings of a small alphabet. */
describe('random lookaround patterns of the admitted shapes agree with the native RegExp', () => {
  const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '[a1]', '\\w', '\\s', '🙏', '[\\s\\S]');
  const quantifier = fc.constantFrom('', '', '*', '+', '?', '{1,2}', '{2}');
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
    { weight: 1, arbitrary: fc.tuple(atom, atom, quantifier).map(([a, b, q]) => `(?:${a}|${b}${a})${q}`) },
    { weight: 1, arbitrary: fc.constantFrom('\\b', '\\B', '$', '(?=a)', '(?!b)') },
  );
  const seq = fc.array(piece, { maxLength: 3 }).map((parts) => parts.join(''));
  const fixed = fc.array(atom, { maxLength: 2 }).map((parts) => parts.join(''));
  const body = fc.oneof(
    seq.filter((s) => s !== ''),
    fc.tuple(seq, seq).map(([a, b]) => `${a}|${b}`),
    fc.constant('$'),
  );
  const ahead = fc.tuple(fc.constantFrom('(?=', '(?!'), body).map(([open, b]) => `${open}${b})`);
  const behind = fc.tuple(fc.constantFrom('(?<=', '(?<!'), body).map(([open, b]) => `${open}${b})`);
  const oneChar = fc.tuple(fc.constantFrom('(?=', '(?!'), fc.oneof(atom, fc.constant('$'))).map(([open, a]) => `${open}${a})`);
  const end = fc.constantFrom('', '$');
  const shape = fc.oneof(
    // after ^ and a fixed-width prefix
    fc.tuple(fixed, ahead, seq, end).map(([f, l, s, e]) => `^${f}${l}${s}${e}`),
    // before a fixed-width suffix and $
    fc.tuple(fc.constantFrom('', '^'), seq, behind, fixed).map(([a, s, l, f]) => `${a}${s}${l}${f}$`),
    // a one-character lookahead anywhere before $
    fc.tuple(seq, oneChar, seq).map(([s, l, t]) => `^${s}${l}${t}$`),
    // inside an anchored alternation, and beside an unanchored branch
    fc.tuple(fixed, ahead, seq, seq).map(([f, l, s, t]) => `^${f}(?:${l}${s}|${t})$`),
    fc.tuple(ahead, seq, seq).map(([l, s, t]) => `^${l}${s}$|${t}`),
  );
  const subject = fc.array(fc.constantFrom('a', 'b', '1', ' ', '\n', '🙏', '\ud800', 'x'), { maxLength: 6 }).map((cs) => cs.join(''));

  it('gives the same answer on every string (seeded)', () => {
    let admitted = 0;
    let tried = 0;
    fc.assert(
      fc.property(shape, fc.array(subject, { minLength: 20, maxLength: 20 }), (pattern, strings) => {
        let native: RegExp;
        try {
          native = new NativeRegExp(pattern, 'u');
        } catch {
          return;
        }
        tried++;
        const linear = compileLinearPattern(pattern);
        if (!linear.ok) return;
        admitted++;
        // V8's known \b/\B bug (first describe): no astral characters with those, the native answer would be wrong.
        const v8Bug = /\\[bB]/.test(pattern);
        for (const s of strings) {
          if (v8Bug && /[\ud800-\udbff][\udc00-\udfff]/.test(s)) continue;
          assert.equal(linear.matcher.test(s), native.test(s), `${JSON.stringify(s)} against /${pattern}/u`);
        }
      }),
      { seed: 19, numRuns: 1000 },
    );
    if (process.env.LA_PROFILE) console.log(`admitted ${admitted} of ${tried}`);
    assert.ok(admitted >= tried * 0.6, `admitted ${admitted} of ${tried}`);
  });
});
