// Integers past 2^53 are exact (docs/architecture.md#schema-policy-and-refusal-codes) in instances (LosslessNumber from parseJson, or bigint) and in schemas.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, parseJson } from '../../../src/engine/index.ts';
import { accept, assertValid, issuesOf, lossless } from '../../fixtures/engine/helpers.ts';

const twoTo53 = '9007199254740992';
const twoTo53Plus1 = '9007199254740993';

describe('parseJson keeps big integers exact', () => {
  it('yields a LosslessNumber for an integer past 2^53', () => {
    const value = lossless(twoTo53Plus1) as { isLosslessNumber?: boolean; value?: string };
    assert.equal(value.isLosslessNumber, true);
    assert.equal(value.value, twoTo53Plus1);
  });

  it('yields plain numbers for safe integers and decimals', () => {
    assert.deepEqual(lossless('[1, -2, 1.5, 1e3, 9007199254740991]'), [1, -2, 1.5, 1000, 9007199254740991]);
  });
});

describe('maximum and minimum', () => {
  const maximum = { type: 'integer', maximum: 9007199254740992 };

  it('refuses 9007199254740993 against maximum 9007199254740992', () => {
    assert.deepEqual(issuesOf(maximum, lossless(twoTo53Plus1)), [
      { path: '$', keyword: 'maximum', message: `got ${twoTo53Plus1}, want at most ${twoTo53}` },
    ]);
  });

  it('accepts 9007199254740992 against maximum 9007199254740992', () => {
    assertValid(maximum, lossless(twoTo53));
  });

  it('refuses the bigint 9007199254740993n against maximum 9007199254740992', () => {
    assert.equal(issuesOf(maximum, 9007199254740993n)[0]?.message, `got ${twoTo53Plus1}, want at most ${twoTo53}`);
  });

  it('accepts the bigint 9007199254740992n', () => {
    assertValid(maximum, 9007199254740992n);
  });

  it('compares against a big bound from a losslessly parsed schema', () => {
    const schema = lossless(`{"minimum": ${twoTo53Plus1}}`);
    assertValid(schema, lossless(twoTo53Plus1));
    assert.deepEqual(issuesOf(schema, lossless(twoTo53)), [
      { path: '$', keyword: 'minimum', message: `got ${twoTo53}, want at least ${twoTo53Plus1}` },
    ]);
  });

  it('treats an exclusiveMaximum equal to the instance as exceeded', () => {
    const schema = lossless(`{"exclusiveMaximum": ${twoTo53Plus1}}`);
    assert.equal(issuesOf(schema, lossless(twoTo53Plus1))[0]?.message, `got ${twoTo53Plus1}, want less than ${twoTo53Plus1}`);
    assertValid(schema, lossless(twoTo53));
  });

  it('orders negative big integers exactly', () => {
    const schema = lossless('{"minimum": -9007199254740992}');
    assert.equal(issuesOf(schema, lossless('-9007199254740993'))[0]?.message, 'got -9007199254740993, want at least -9007199254740992');
    assertValid(lossless('{"minimum": -9007199254740993}'), lossless('-9007199254740993'));
  });

  it('orders two integers past 2^64 exactly', () => {
    const schema = lossless('{"maximum": 123456789012345678901234567890}');
    assertValid(schema, lossless('123456789012345678901234567890'));
    assert.equal(issuesOf(schema, lossless('123456789012345678901234567891')).length, 1);
  });

  it('checks a big integer nested in an object at its path', () => {
    const schema = { properties: { id: { type: 'integer', maximum: 9007199254740992 } } };
    assert.deepEqual(issuesOf(schema, lossless(`{"id": ${twoTo53Plus1}}`)), [
      { path: '$.id', keyword: 'maximum', message: `got ${twoTo53Plus1}, want at most ${twoTo53}` },
    ]);
  });
});

describe('multipleOf', () => {
  it('refuses 9007199254740995 as a multiple of 3', () => {
    assert.deepEqual(issuesOf({ multipleOf: 3 }, lossless('9007199254740995')), [
      { path: '$', keyword: 'multipleOf', message: 'got 9007199254740995, want a multiple of 3' },
    ]);
  });

  it('accepts 9007199254740996 as a multiple of 3', () => {
    assertValid({ multipleOf: 3 }, lossless('9007199254740996'));
    assertValid({ multipleOf: 3 }, 9007199254740996n);
  });

  it('refuses the bigint 9007199254740995n as a multiple of 3', () => {
    assert.equal(issuesOf({ multipleOf: 3 }, 9007199254740995n)[0]?.keyword, 'multipleOf');
  });

  it('checks a big divisor exactly and prints its exact digits', () => {
    const schema = lossless(`{"multipleOf": ${twoTo53Plus1}}`);
    assertValid(schema, lossless('18014398509481986'));
    assert.deepEqual(issuesOf(schema, lossless('18014398509481987')), [
      { path: '$', keyword: 'multipleOf', message: `got 18014398509481987, want a multiple of ${twoTo53Plus1}` },
    ]);
  });

  it('checks 2^60 exactly: 1152921504606846976 is not a multiple of 1000', () => {
    // 2^60 is a double exactly, but its shortest decimal form is 1152921504606847000, a multiple of 1000.
    assert.equal(accept({ multipleOf: 1000 }).validate(lossless('1152921504606846976')).status, 'invalid');
    assert.equal(accept({ multipleOf: 1000 }).validate(1152921504606846976n).status, 'invalid');
  });

  it('checks a decimal divisor against a big integer', () => {
    assertValid({ multipleOf: 0.5 }, lossless(twoTo53Plus1));
    assert.equal(issuesOf({ multipleOf: 2 }, lossless(twoTo53Plus1))[0]?.keyword, 'multipleOf');
  });
});

describe('const and enum', () => {
  it('matches a big const only with the same digits', () => {
    const schema = lossless(`{"const": ${twoTo53Plus1}}`);
    assertValid(schema, lossless(twoTo53Plus1));
    assertValid(schema, 9007199254740993n);
    assert.deepEqual(issuesOf(schema, lossless(twoTo53)), [
      { path: '$', keyword: 'const', message: `got ${twoTo53}, want ${twoTo53Plus1}` },
    ]);
    assert.equal(issuesOf(schema, lossless('9007199254740994'))[0]?.message, `got 9007199254740994, want ${twoTo53Plus1}`);
  });

  it('matches a big const given as a bigint in the schema', () => {
    assertValid({ const: 9007199254740993n }, lossless(twoTo53Plus1));
    assert.equal(issuesOf({ const: 9007199254740993n }, lossless(twoTo53)).length, 1);
  });

  it('matches a big enum member exactly and lists the exact digits', () => {
    const schema = lossless(`{"enum": [${twoTo53Plus1}, 12345678901234567890]}`);
    assertValid(schema, lossless('12345678901234567890'));
    assert.deepEqual(issuesOf(schema, lossless('12345678901234567891')), [
      { path: '$', keyword: 'enum', message: `got 12345678901234567891, want one of ${twoTo53Plus1}, 12345678901234567890` },
    ]);
  });

  it('compares big integers inside an enum object exactly', () => {
    const schema = lossless(`{"enum": [{"id": ${twoTo53Plus1}}]}`);
    assertValid(schema, lossless(`{"id": ${twoTo53Plus1}}`));
    assert.equal(issuesOf(schema, lossless(`{"id": ${twoTo53}}`)).length, 1);
  });

  it('prints the exact digits of big integers nested in enum and const values', () => {
    const enumIssue = issuesOf(lossless(`{"enum": [{"id": ${twoTo53Plus1}}]}`), lossless(`{"id": ${twoTo53}}`))[0];
    assert.equal(enumIssue?.message, `got {"id":${twoTo53}}, want one of {"id":${twoTo53Plus1}}`);
    const constIssue = issuesOf(lossless(`{"const": [${twoTo53Plus1}]}`), lossless('[9007199254740995]'))[0];
    assert.equal(constIssue?.message, `got [9007199254740995], want [${twoTo53Plus1}]`);
  });

  it('tells big integers apart in uniqueItems', () => {
    assertValid({ uniqueItems: true }, lossless(`[${twoTo53Plus1}, ${twoTo53}]`));
    assert.equal(issuesOf({ uniqueItems: true }, lossless(`[${twoTo53Plus1}, ${twoTo53Plus1}]`))[0]?.keyword, 'uniqueItems');
  });
});

describe('type integer', () => {
  it('accepts an integer past 2^53 as an integer', () => {
    assertValid({ type: 'integer' }, lossless(twoTo53Plus1));
    assertValid({ type: 'integer' }, lossless('-123456789012345678901234567890'));
    assertValid({ type: 'integer' }, 123456789012345678901234567890n);
  });

  it('reports a big integer where a string is wanted as an integer', () => {
    assert.deepEqual(issuesOf({ type: 'string' }, lossless(twoTo53Plus1)), [
      { path: '$', keyword: 'type', message: 'got integer, want string' },
    ]);
  });
});

describe('exact digits in messages', () => {
  it('prints the digits of a big integer that is exactly a double (2^60)', () => {
    const message = issuesOf({ maximum: 10 }, lossless('1152921504606846976'))[0]?.message;
    assert.equal(message, 'got 1152921504606846976, want at most 10');
  });

  it('prints the digits of a bigint instance', () => {
    assert.equal(issuesOf({ maximum: 10 }, 123456789012345678901n)[0]?.message, 'got 123456789012345678901, want at most 10');
  });
});

describe('validateJson', () => {
  it('parses the instance text losslessly', async () => {
    const engine = createEngine();
    assert.deepEqual(await engine.validateJson({ maximum: 9007199254740992 }, twoTo53Plus1), {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'maximum', message: `got ${twoTo53Plus1}, want at most ${twoTo53}` }],
    });
    assert.deepEqual(await engine.validateJson({ maximum: 9007199254740992 }, twoTo53), { status: 'valid' });
  });

  it('reports malformed JSON text as an issue at $', async () => {
    const outcome = await createEngine().validateJson({}, '{"a": ');
    assert.ok(outcome.status === 'invalid', JSON.stringify(outcome));
    assert.equal(outcome.issues.length, 1);
    assert.equal(outcome.issues[0].path, '$');
    assert.equal(outcome.issues[0].keyword, 'json');
    assert.match(outcome.issues[0].message, /^not valid JSON: /);
  });

  it('reports duplicate keys with different values as malformed', () => {
    const parsed = parseJson('{"a": 1, "a": 2}', { maxBytes: 100, maxDepth: 5 });
    assert.equal(parsed.ok, false);
    assert.equal(!parsed.ok && parsed.code, 'malformed');
  });
});
