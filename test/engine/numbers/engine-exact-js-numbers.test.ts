// Issue 20: what a plain JavaScript number means (docs/dialects.md, "What a JavaScript number means"). Below 2^53,
// its shortest decimal (0.1 is one tenth); from 2^53 on, its exact binary value (2 ** 60 is 1152921504606846976).
// JSON text always means its own digits. Checked against BigInt arithmetic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createEngine, fingerprint, parseJson } from '../../../src/engine/index.ts';
import { exactOfDouble, formatExact, isDoubleText, meansDouble, parseExactDecimal } from '../../../src/engine/numbers/exact-decimal.ts';

const engine = createEngine();

const lossless = (text: string): object => {
  const parsed = parseJson(text, { maxBytes: 1 << 20, maxDepth: 100 });
  if (!parsed.ok) assert.fail(parsed.message);
  return parsed.value as object;
};

type Outcome = ReturnType<typeof engine.validate>;
const messages = (outcome: Outcome): string[] =>
  outcome.status === 'invalid' ? outcome.issues.map((issue) => `${issue.path} ${issue.keyword}: ${issue.message}`) : [outcome.status];

describe('a plain JS number past 2^53 is its exact binary value', () => {
  it('2 ** 60 is not a multiple of 1000 (it is 1152921504606846976)', () => {
    assert.deepEqual(messages(engine.validate({ multipleOf: 1000 }, 2 ** 60)), [
      '$ multipleOf: got 1152921504606846976, want a multiple of 1000',
    ]);
    assert.deepEqual(engine.validate({ multipleOf: 1024 }, 2 ** 60), { status: 'valid' });
  });

  it('2 ** 70 is not a multiple of 3', () => {
    assert.deepEqual(messages(engine.validate({ multipleOf: 3 }, 2 ** 70)), [
      '$ multipleOf: got 1180591620717411303424, want a multiple of 3',
    ]);
    assert.deepEqual(engine.validate({ multipleOf: 2 ** 35 }, 2 ** 70), { status: 'valid' });
  });

  it('a schema written in code with 1e300 does not accept the text 1e300 (the double is not 10^300)', () => {
    const outcome = engine.validateJson({ const: 1e300 }, '1e300');
    assert.deepEqual(messages(outcome), ['$ const: got 1e300, want 1.000000000000000052504760255204420248704…e300']);
    assert.deepEqual(engine.validate({ const: 1e300 }, 1e300), { status: 'valid' });
    assert.deepEqual(engine.validateJson(lossless('{"const":1e300}'), '1e300'), { status: 'valid' });
    assert.deepEqual(engine.validateJson({ const: 10n ** 300n }, '1e300'), { status: 'valid' });
  });

  it('a multipleOf of 2 ** 64 written in code divides the text 18446744073709551616 and prints its exact value', () => {
    // The literal 18446744073709551616 in code is this very double (biome flags the literal, not the value).
    const schema = { multipleOf: 2 ** 64 };
    assert.deepEqual(engine.validateJson(schema, '18446744073709551616'), { status: 'valid' });
    assert.deepEqual(engine.validateJson(schema, '36893488147419103232'), { status: 'valid' });
    assert.deepEqual(messages(engine.validateJson(schema, '18446744073709551617')), [
      '$ multipleOf: got 18446744073709551617, want a multiple of 18446744073709551616',
    ]);
  });

  it('a bound written in code prints its exact value', () => {
    assert.deepEqual(messages(engine.validateJson({ maximum: 2 ** 60 }, '1152921504606846977')), [
      '$ maximum: got 1152921504606846977, want at most 1152921504606846976',
    ]);
    assert.deepEqual(messages(engine.validateJson({ enum: [2 ** 60, 'x'] }, '1152921504606847000')), [
      '$ enum: got 1152921504606847000, want one of 1152921504606846976, "x"',
    ]);
    assert.deepEqual(engine.validateJson({ maximum: 2 ** 60 }, '1152921504606846976'), { status: 'valid' });
  });

  it('a negative double past 2^53 is its exact binary value too', () => {
    assert.deepEqual(messages(engine.validate({ multipleOf: 10 }, -(2 ** 60))), [
      '$ multipleOf: got -1152921504606846976, want a multiple of 10',
    ]);
    assert.deepEqual(engine.validateJson({ minimum: -(2 ** 60) }, '-1152921504606846976'), { status: 'valid' });
    assert.equal(engine.validateJson({ minimum: -(2 ** 60) }, '-1152921504606846977').status, 'invalid');
  });
});

describe('JSON text means its own digits, never the double it rounds to', () => {
  it('the text 1152921504606847000 (2 ** 60 written shortest) is a multiple of 1000 and not 2 ** 60', () => {
    assert.deepEqual(engine.validateJson({ multipleOf: 1000 }, '1152921504606847000'), { status: 'valid' });
    assert.deepEqual(messages(engine.validateJson({ const: 2 ** 60 }, '1152921504606847000')), [
      '$ const: got 1152921504606847000, want 1152921504606846976',
    ]);
    assert.deepEqual(engine.validateJson({ const: 2 ** 60 }, '1152921504606846976'), { status: 'valid' });
    assert.deepEqual(engine.validateJson({ uniqueItems: true }, '[1152921504606846976, 1152921504606847000]'), { status: 'valid' });
  });

  it('a text means a double only when it is the value that double stands for', () => {
    for (const text of [
      '0.1',
      '1.50',
      '1e2',
      '9007199254740992',
      '1152921504606846976',
      '-1152921504606846976',
      '1152921504606846976.0',
      '1e21',
    ])
      assert.equal(isDoubleText(text), true, text);
    for (const text of ['9007199254740993', '1152921504606847000', '1e300', '1e400', '1e-400', '4503599627370496.5', '1e23'])
      assert.equal(isDoubleText(text), false, text);
  });

  it('a double stands for its shortest decimal below 2^53 and for its binary value from 2^53 on', () => {
    assert.equal(formatExact(exactOfDouble(0.1)), '0.1');
    assert.equal(formatExact(exactOfDouble(9007199254740991)), '9007199254740991');
    assert.equal(formatExact(exactOfDouble(2 ** 53)), '9007199254740992');
    assert.equal(formatExact(exactOfDouble(2 ** 60)), '1152921504606846976');
    assert.equal(formatExact(exactOfDouble(-(2 ** 64))), '-18446744073709551616');
    assert.equal(formatExact(exactOfDouble(1e21)), '1000000000000000000000');
    assert.equal(formatExact(exactOfDouble(1e23)), '99999999999999991611392');
  });

  it('schemas meaning different numbers never share a fingerprint, so the cache never mixes them up', async () => {
    const code = { const: 2 ** 60 };
    const text = lossless('{"const":1152921504606847000}');
    assert.notEqual(await fingerprint(code), await fingerprint(text));
    assert.equal(await fingerprint(code), await fingerprint(lossless('{"const":1152921504606846976}')));
    const shared = createEngine();
    assert.deepEqual(shared.validate(code, 2 ** 60), { status: 'valid' });
    assert.deepEqual(messages(shared.validate(text, 2 ** 60)), ['$ const: got 1152921504606846976, want 1152921504606847000']);
  });
});

/** Any double of magnitude 2^53 or more, as its exact BigInt. */
const hugeDoubleArb = fc
  .tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: 1, max: 970 }), fc.boolean())
  .map(([mantissa, shift, negative]) => (negative ? -1n : 1n) * mantissa * 2n ** BigInt(shift));
const divisorArb = fc.oneof(
  fc.bigInt({ min: 1n, max: 10_000n }),
  fc.bigInt({ min: 1n, max: 2n ** 80n }),
  fc.constantFrom(1000n, 3n, 1024n, 10n ** 18n),
);

describe('plain JS numbers past 2^53 against exact arithmetic', () => {
  it('multipleOf, on the object path and the text path, decides as BigInt does', () => {
    fc.assert(
      fc.property(hugeDoubleArb, divisorArb, (exact, divisor) => {
        const double = Number(exact);
        assert.equal(BigInt(double), exact);
        const expected = exact % divisor === 0n ? 'valid' : 'invalid';
        // The divisor as the schema's exact digits (a BigInt) and, where a double holds it, as a JS number.
        const schemas: object[] = [{ multipleOf: divisor }];
        if (BigInt(Number(divisor)) === divisor) schemas.push({ multipleOf: Number(divisor) });
        for (const schema of schemas) {
          assert.equal(engine.validate(schema, double).status, expected, `${exact} multipleOf ${divisor}`);
          assert.equal(engine.validateJson(schema, exact.toString()).status, expected, `text ${exact} multipleOf ${divisor}`);
        }
      }),
      { numRuns: 150, seed: 20 },
    );
  });

  it('const, minimum and maximum written as JS numbers compare as their exact values with the text', () => {
    fc.assert(
      fc.property(hugeDoubleArb, fc.bigInt({ min: -3000n, max: 3000n }), (exact, offset) => {
        const double = Number(exact);
        const text = (exact + offset).toString();
        assert.equal(engine.validateJson({ const: double }, text).status, offset === 0n ? 'valid' : 'invalid', `${text} const ${exact}`);
        assert.equal(engine.validateJson({ maximum: double }, text).status, offset <= 0n ? 'valid' : 'invalid', `${text} max ${exact}`);
        assert.equal(engine.validateJson({ minimum: double }, text).status, offset >= 0n ? 'valid' : 'invalid', `${text} min ${exact}`);
        // The shortest text of the double means its own digits.
        const shortest = String(double);
        const value = parseExactDecimal(shortest);
        assert.ok(value !== undefined);
        const shortestExact = (value.negative ? -1n : 1n) * BigInt(value.digits) * 10n ** BigInt(value.exponent);
        const same = shortestExact === exact;
        assert.equal(meansDouble(value, double), same, shortest);
      }),
      { numRuns: 150, seed: 2020 },
    );
  });
});
