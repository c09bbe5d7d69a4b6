// Lossless JSON (issue #9): every number whose text is not exactly a double is exact, duplicate keys are
// malformed, lone surrogates in keys fail closed, and an `$id` inside an unknown keyword is no identifier.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LosslessNumber, parse as losslessParse } from 'lossless-json';
import { createEngine, parseJson } from '../../../src/engine/index.ts';
import { compareExact, isDoubleText, parseExactDecimal } from '../../../src/engine/numbers/exact-decimal.ts';
import { assertValid, issuesOf, lossless, refuse } from '../../fixtures/engine/helpers.ts';

const parse = (text: string) => parseJson(text, { maxBytes: 4 * 1024 * 1024, maxDepth: 100 });

describe('which numbers take the exact path', () => {
  it('keeps texts that round-trip as plain numbers', () => {
    for (const text of ['0.1', '1.50', '1e2', '-0', '123456789', '5e-324', '9007199254740992', '2.2250738585072014e-308'])
      assert.equal(isDoubleText(text), true, text);
    assert.deepEqual(lossless('[0.1, 1.50, 1e2]'), [0.1, 1.5, 100]);
  });

  it('keeps texts that a double would change as exact numbers', () => {
    // Past 2^53 a double means its exact binary value, so the shortest text of the largest double is not it.
    const texts = ['4503599627370496.5', '9007199254740993', '1e400', '1e-400', '0.10000000000000000001', '1.7976931348623157e308'];
    for (const text of texts) {
      assert.equal(isDoubleText(text), false, text);
      assert.equal((lossless(text) as { isLosslessNumber?: boolean }).isLosslessNumber, true, text);
    }
  });

  it('holds a huge exponent symbolically instead of expanding it', () => {
    assert.deepEqual(parseExactDecimal('1e999999999'), { negative: false, digits: '1', exponent: 999999999 });
    assert.deepEqual(parseExactDecimal('-120.500e-3'), { negative: true, digits: '1205', exponent: -4 });
    assert.equal(parseExactDecimal(`1e${'9'.repeat(100_000)}`), undefined);
    const big = parseExactDecimal('1e999999999');
    const bigger = parseExactDecimal('1.0000001e999999999');
    assert.ok(big && bigger);
    assert.equal(compareExact(big, bigger), -1);
  });
});

describe('type integer, bounds, multipleOf, enum and const are exact', () => {
  it('refuses 4503599627370496.5 (between 2^52 and 2^53) as an integer', () => {
    assert.deepEqual(issuesOf({ type: 'integer' }, lossless('4503599627370496.5')), [
      { path: '$', keyword: 'type', message: 'got number, want integer' },
    ]);
  });

  it('accepts 1e400 as an integer and orders it above the largest double', () => {
    assertValid({ type: 'integer' }, lossless('1e400'));
    assert.deepEqual(issuesOf(lossless('{"maximum": 1e308}'), lossless('1e400')), [
      { path: '$', keyword: 'maximum', message: 'got 1e400, want at most 1e308' },
    ]);
  });

  it('reads 1e-400 as more than 0 and not an integer', () => {
    assertValid({ exclusiveMinimum: 0 }, lossless('1e-400'));
    assert.equal(issuesOf({ type: 'integer' }, lossless('1e-400'))[0]?.keyword, 'type');
    assert.equal(issuesOf({ maximum: 0 }, lossless('1e-400'))[0]?.message, 'got 1e-400, want at most 0');
    assertValid({ exclusiveMaximum: 0 }, lossless('-1e-400'));
  });

  it('compares against exact bounds from a losslessly parsed schema', () => {
    const schema = lossless('{"minimum": 1e-400}');
    assert.deepEqual(issuesOf(schema, 0), [{ path: '$', keyword: 'minimum', message: 'got 0, want at least 1e-400' }]);
    assertValid(schema, lossless('2e-400'));
    assertValid(lossless('{"multipleOf": 1e-400}'), 0.5);
  });

  it('decides multipleOf on a huge exponent without expanding it', () => {
    assertValid({ multipleOf: 7 }, lossless('7e999999999'));
    assert.deepEqual(issuesOf({ multipleOf: 7 }, lossless('1e999999999')), [
      { path: '$', keyword: 'multipleOf', message: 'got 1e999999999, want a multiple of 7' },
    ]);
    assertValid({ multipleOf: 0.5 }, lossless('4503599627370496.5'));
  });

  it('tells a digit past a double apart in const, enum and uniqueItems', () => {
    assert.equal(issuesOf({ const: 1 }, lossless('1.0000000000000000000001'))[0]?.keyword, 'const');
    assert.deepEqual(issuesOf({ items: { enum: [0.1, 2] } }, lossless('[0.1, 2, 0.10000000000000000001]')), [
      { path: '$[2]', keyword: 'enum', message: 'got 0.10000000000000000001, want one of 0.1, 2' },
    ]);
    assertValid({ uniqueItems: true }, lossless('[0.1, 0.10000000000000000001]'));
  });

  it('makes an exponent past the limit an invalid instance, not a crash', () => {
    const issues = issuesOf({ type: 'number' }, lossless(`{"n": 1e${'9'.repeat(100_000)}}`));
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.path, '$.n');
    assert.equal(issues[0]?.keyword, 'json');
    assert.match(issues[0]?.message ?? '', /exponent of 1e\+15 or more/);
    assert.ok((issues[0]?.message.length ?? 0) < 200);
  });

  it('refuses a schema with such a number', () => {
    assert.equal(refuse(lossless(`{"maximum": 1e${'9'.repeat(20)}}`)).code, 'invalid_schema');
  });
});

describe('duplicate object keys', () => {
  it('reports a repeated key as malformed even when the values are equal', () => {
    const parsed = parse('{"a":1,"a":1}');
    assert.deepEqual(parsed, { ok: false, code: 'malformed', message: 'duplicate object key "a" at position 7' });
  });

  it('finds a repeat nested, and one spelled with an escape', () => {
    assert.equal(parse('{"b":{"x":[1,{"c":2}],"y":{"\\u0061":1,"a":1}}}').ok, false);
    assert.match((parse('[{"k:{":[],"k:{":[]}]') as { message: string }).message, /duplicate object key "k:\{"/);
  });

  it('accepts the same key in different objects, and colons inside strings', () => {
    assert.deepEqual(parse('{"a":1,"b":{"a":1},"c":"x:y","d":[{"a":":"}]}'), {
      ok: true,
      value: { a: 1, b: { a: 1 }, c: 'x:y', d: [{ a: ':' }] },
    });
  });

  it('makes validateJson report the repeat as a json issue', async () => {
    const engine = createEngine();
    assert.deepEqual(await engine.validateJson({ type: 'object' }, '{"a":1,"a":1}'), {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'json', message: 'not valid JSON: duplicate object key "a" at position 7' }],
    });
  });
});

describe('lone surrogates in object keys', () => {
  it('reports an instance key with an unpaired surrogate at the object, never throwing', () => {
    for (const key of ['\ud800', 'a\udc00', '\udbff\udbff']) {
      assert.deepEqual(issuesOf({ type: 'object' }, { outer: { [key]: 1 } }), [
        { path: '$.outer', keyword: 'json', message: `an object key has an unpaired UTF-16 surrogate: ${JSON.stringify(key)}` },
      ]);
    }
  });

  it('still validates keys with paired surrogates and string values with lone ones', () => {
    assertValid({ properties: { '😀': { type: 'integer' } } }, { '😀': 1 });
    assertValid({ type: 'string', minLength: 1 }, '\ud800');
    assert.equal(issuesOf({ items: { type: 'integer' } }, ['\udc00'])[0]?.keyword, 'type');
  });

  it('refuses a schema with such a key', () => {
    assert.equal(refuse({ properties: { '\ud800': {} } }).code, 'invalid_schema');
  });
});

describe('$id inside an unknown keyword', () => {
  it('is not an identifier, so it conflicts with nothing', () => {
    const schema = { 'x-foo': { $id: 'https://a/b' }, $defs: { y: { $id: 'https://a/b', type: 'string' } }, $ref: 'https://a/b' };
    assertValid(schema, 'text');
    assert.equal(issuesOf(schema, 1)[0]?.keyword, 'type');
  });

  it('resolves a reference to the real identifier only (JSON-Schema-Test-Suite optional/unknownKeyword)', () => {
    const id = 'https://localhost:1234/draft2020-12/unknownKeyword/my_identifier.json';
    const schema = {
      $defs: {
        id_in_unknown0: { not: { array_of_schemas: [{ $id: id, type: 'null' }] } },
        real_id_in_schema: { $id: id, type: 'string' },
        id_in_unknown1: { not: { object_of_schemas: { foo: { $id: id, type: 'integer' } } } },
      },
      anyOf: [{ $ref: '#/$defs/id_in_unknown0' }, { $ref: '#/$defs/id_in_unknown1' }, { $ref: id }],
    };
    assertValid(schema, 'a string');
    assert.equal(issuesOf(schema, null)[0]?.path, '$');
    assert.equal(issuesOf(schema, 1)[0]?.path, '$');
  });
});

describe('parseJson: native parsing where every number is a double', () => {
  /** What the lossless parser alone makes of the text: the reference the native fast path must equal. */
  const reference = (text: string): unknown =>
    losslessParse(text, undefined, (digits: string) => (isDoubleText(digits) ? Number(digits) : new LosslessNumber(digits)));
  const numberText = fc.oneof(
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    fc.constantFrom(
      '9007199254740993',
      '-9007199254740993',
      '1e400',
      '-1e-400',
      '4503599627370496.5',
      '0.1',
      '1e5',
      '1E+2',
      '-0',
      '123456789012345',
      '1234567890123456',
      '0.30000000000000004',
      '1.0',
    ),
  );
  const text = fc
    .tuple(fc.jsonValue({ maxDepth: 3 }), fc.array(numberText, { maxLength: 4 }), fc.array(fc.string(), { maxLength: 3 }))
    .map(
      ([value, numbers, keys]) =>
        `{"v":${JSON.stringify(value)},"n":[${numbers.join(',')}],"k":${JSON.stringify(Object.fromEntries(keys.map((key, i) => [`${key}${i}`, i])))}}`,
    );

  it('gives exactly what the lossless parser gives, numbers past doubles kept exact (fast-check)', () => {
    fc.assert(
      fc.property(text, (json) => {
        const parsed = parseJson(json, { maxBytes: 1 << 20, maxDepth: 64 });
        assert.ok(parsed.ok);
        assert.deepStrictEqual(parsed.value, reference(json));
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });

  it('keeps the lossless parser’s messages for malformed text', () => {
    for (const bad of ['{"a": [1, 2', '[1.2.3]', '{"a" 1}', '\ufeff{}', '[--1]', '{"a": tru}']) {
      const parsed = parseJson(bad, { maxBytes: 1 << 20, maxDepth: 64 });
      assert.equal(parsed.ok, false, bad);
      let expected = '';
      try {
        reference(bad);
      } catch (error) {
        expected = (error as Error).message;
      }
      assert.ok(!parsed.ok);
      assert.equal(parsed.message, expected, bad);
    }
  });

  it('still finds duplicate keys, __proto__ included, on the native path', () => {
    for (const dup of ['{"a":1,"a":1}', '{"x":{"b":2,"b":3}}', '{"__proto__":{},"__proto__":{}}']) {
      const parsed = parseJson(dup, { maxBytes: 1 << 20, maxDepth: 64 });
      assert.equal(parsed.ok, false, dup);
    }
    // Different values: the lossless parser's own words, whichever parser ran first.
    assert.deepEqual(parseJson('{"x":{"b":2,"b":3}}', { maxBytes: 1 << 20, maxDepth: 64 }), {
      ok: false,
      code: 'malformed',
      message: "Duplicate key 'b' encountered at position 13",
    });
    const proto = parseJson('{"__proto__":{"polluted":1}}', { maxBytes: 1 << 20, maxDepth: 64 });
    assert.ok(proto.ok);
    assert.deepEqual(Object.keys(proto.value as object), ['__proto__']);
    assert.equal((proto.value as { polluted?: unknown }).polluted, undefined);
  });
});
