// Instances (docs/architecture.md#schema-policy-and-refusal-codes): JSON values only, validated as null-prototype copies, within size and depth bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, parseJson, resolvePolicy } from '../../../src/engine/index.ts';
import { accept, assertValid, deepFreeze, issuesOf } from '../../fixtures/engine/helpers.ts';

function nestedArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('inherited names are not properties', () => {
  it('does not meet required: ["toString"] with {}', () => {
    assert.deepEqual(issuesOf({ required: ['toString'] }, {}), [
      { path: '$', keyword: 'required', message: 'missing required property "toString"' },
    ]);
  });

  it('does not meet required constructor, hasOwnProperty or __proto__ with {}', () => {
    const issues = issuesOf({ required: ['constructor', 'hasOwnProperty', '__proto__'] }, {});
    assert.equal(issues.length, 3);
  });

  it('does not count inherited names against maxProperties', () => {
    assertValid({ maxProperties: 0 }, {});
  });

  it('treats a __proto__ key parsed from JSON text as a real property', () => {
    const parsed = parseJson('{"__proto__": {"polluted": true}}', { maxBytes: 1000, maxDepth: 10 });
    assert.ok(parsed.ok);
    assertValid({ required: ['__proto__'] }, parsed.value);
    assert.deepEqual(issuesOf({ additionalProperties: false }, parsed.value), [
      { path: '$.__proto__', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
    assert.equal(issuesOf({ maxProperties: 0 }, parsed.value)[0]?.message, 'got 1 property, want at most 0');
  });

  it('validates a __proto__ property against its own schema', () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}}, "required": ["__proto__"]}');
    assertValid(schema, JSON.parse('{"__proto__": "ok"}'));
    assert.deepEqual(issuesOf(schema, JSON.parse('{"__proto__": 1}')), [
      { path: '$.__proto__', keyword: 'type', message: 'got integer, want string' },
    ]);
  });

  it('does not pollute Object.prototype while validating a __proto__ property', () => {
    const parsed = parseJson('{"__proto__": {"polluted": true}}', { maxBytes: 1000, maxDepth: 10 });
    assert.ok(parsed.ok);
    accept({ properties: { __x: {} }, additionalProperties: { type: 'object' } }).validate(parsed.value);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('treats a constructor key as an ordinary property', () => {
    assert.deepEqual(issuesOf({ additionalProperties: false }, { constructor: 1 }), [
      { path: '$.constructor', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
  });

  it('accepts a null-prototype object as a JSON object', () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    assertValid({ type: 'object', required: ['a'] }, value);
  });
});

describe('instance bounds', () => {
  it('reports an instance over 1 MiB as invalid at $, without throwing', () => {
    const issues = issuesOf({ type: 'string' }, 'x'.repeat(1024 * 1024 + 10));
    assert.deepEqual(issues, [{ path: '$', keyword: 'maxInstanceBytes', message: 'over 1048576 bytes of JSON' }]);
  });

  it('accepts a string whose JSON encoding is exactly 1 MiB', () => {
    assertValid({ type: 'string' }, 'x'.repeat(1024 * 1024 - 2));
  });

  it('counts UTF-8 bytes of an instance, not UTF-16 units', () => {
    const issues = issuesOf({}, { text: '€'.repeat(400_000) });
    assert.equal(issues[0]?.keyword, 'maxInstanceBytes');
  });

  it('reports an instance deeper than 64 as invalid at $', () => {
    assert.deepEqual(issuesOf({}, nestedArray(65)), [{ path: '$', keyword: 'maxInstanceDepth', message: 'nesting deeper than 64' }]);
  });

  it('accepts an instance exactly 64 deep', () => {
    assertValid({}, nestedArray(63));
  });

  it('reports a 100,000-deep instance instead of overflowing the stack', () => {
    const value = accept({}).validate(nestedArray(100_000));
    assert.equal(value.status, 'invalid');
  });

  it('honours smaller instance bounds from the policy', () => {
    const policy = resolvePolicy({ maxInstanceBytes: 10, maxInstanceDepth: 2 });
    assert.equal(issuesOf({}, 'x'.repeat(20), { policy })[0]?.keyword, 'maxInstanceBytes');
    assert.equal(issuesOf({}, [[[1]]], { policy })[0]?.keyword, 'maxInstanceDepth');
  });

  it('reports deep and large JSON text from validateJson at $', async () => {
    const engine = createEngine();
    const deep = await engine.validateJson({}, `${'['.repeat(5000)}${']'.repeat(5000)}`);
    assert.deepEqual(deep, { status: 'invalid', issues: [{ path: '$', keyword: 'maxInstanceDepth', message: 'nesting deeper than 64' }] });
    const large = await engine.validateJson({}, JSON.stringify('x'.repeat(1024 * 1024 + 10)));
    assert.ok(large.status === 'invalid', JSON.stringify(large));
    assert.equal(large.issues[0].keyword, 'maxInstanceBytes');
  });
});

describe('parseJson bounds', () => {
  it('counts raw UTF-8 bytes of the text: a 4-byte "é" string fits maxBytes 4', () => {
    const parsed = parseJson('"é"', { maxBytes: 4, maxDepth: 5 });
    assert.deepEqual(parsed, { ok: true, value: 'é' });
  });

  it('accepts pretty-printed JSON text under the byte limit', () => {
    const text = JSON.stringify(
      Array.from({ length: 2000 }, (_, i) => `v${i}`),
      null,
      2,
    );
    const parsed = parseJson(text, { maxBytes: Buffer.byteLength(text), maxDepth: 5 });
    assert.equal(parsed.ok, true, parsed.ok ? '' : parsed.message);
  });

  it('validates an 800 KB pretty-printed instance from validateJson as a normal array', async () => {
    const text = JSON.stringify(
      Array.from({ length: 100_000 }, () => 'ab'),
      null,
      2,
    );
    assert.ok(Buffer.byteLength(text) < 1024 * 1024);
    assert.deepEqual(await createEngine().validateJson({ type: 'array' }, text), { status: 'valid' });
  });

  it('refuses text one byte over the limit', () => {
    const parsed = parseJson('"abc"', { maxBytes: 4, maxDepth: 5 });
    assert.equal(!parsed.ok && parsed.code, 'too_large');
  });

  it('ignores brackets inside strings when measuring depth', () => {
    const parsed = parseJson(JSON.stringify({ a: '[[[[[[[[[[' }), { maxBytes: 1000, maxDepth: 1 });
    assert.equal(parsed.ok, true);
  });

  it('ends a string only at a quote after an even run of backslashes when measuring depth', () => {
    // Each value ends in escaped backslashes or an escaped quote, then carries brackets the scan must not count.
    const text = JSON.stringify({ a: 'x\\', b: '\\"[[[[', c: '\\\\', d: '' });
    assert.equal(parseJson(text, { maxBytes: 1000, maxDepth: 1 }).ok, true);
    const deep = JSON.stringify({ a: '\\', b: [[1]] });
    const parsed = parseJson(deep, { maxBytes: 1000, maxDepth: 2 });
    assert.equal(!parsed.ok && parsed.code, 'too_deep');
  });

  it('reports nesting over maxDepth without parsing', () => {
    const parsed = parseJson('[[[1]]]', { maxBytes: 1000, maxDepth: 2 });
    assert.equal(!parsed.ok && parsed.code, 'too_deep');
  });
});

describe('values that are not JSON', () => {
  for (const [label, value, path] of [
    ['NaN', Number.NaN, '$'],
    ['Infinity inside an array', { a: [Number.POSITIVE_INFINITY] }, '$.a[0]'],
    ['undefined inside an array', [1, undefined], '$[1]'],
    ['a function', () => 1, '$'],
    ['a function property', { run: () => 1 }, '$.run'],
    ['a symbol', Symbol('s'), '$'],
    ['a Date', new Date(0), '$'],
    ['a Map', new Map([['a', 1]]), '$'],
    ['a class instance', new (class Point {})(), '$'],
    ['a boxed string', Object('text'), '$'],
    ['a typed array', new Uint8Array(2), '$'],
  ] as const) {
    it(`reports ${label} as an issue at ${path} instead of throwing`, () => {
      const issues = issuesOf({}, value);
      assert.equal(issues.length, 1);
      assert.equal(issues[0]?.path, path);
      assert.equal(issues[0]?.keyword, 'json');
    });
  }

  it('reports a sparse array hole as not JSON', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point of the test.
    const issues = issuesOf({}, [1, , 3]);
    assert.equal(issues[0]?.path, '$[1]');
  });

  it('reports a getter that throws as an issue instead of throwing', () => {
    const value = {
      get boom(): never {
        throw new Error('no');
      },
    };
    const issues = issuesOf({}, value);
    assert.equal(issues[0]?.keyword, 'json');
  });

  it('skips an undefined property like JSON.stringify does', () => {
    assert.deepEqual(issuesOf({ required: ['a'] }, { a: undefined }), [
      { path: '$', keyword: 'required', message: 'missing required property "a"' },
    ]);
  });
});

describe('instances are never mutated', () => {
  it('validates a deep-frozen instance', () => {
    const instance = deepFreeze({ list: [{ name: 1 }], extra: true });
    const issues = issuesOf({ properties: { list: { items: { properties: { name: { type: 'string' } } } } } }, instance);
    assert.equal(issues[0]?.path, '$.list[0].name');
  });

  it('leaves the instance deep-equal to what it was, defaults and all', () => {
    const instance = { a: 1, nested: { b: [1, 2] } };
    const before = structuredClone(instance);
    accept({ properties: { a: { type: 'string' }, c: { default: 5 } }, additionalProperties: false }).validate(instance);
    assert.deepEqual(instance, before);
    assert.deepEqual(Reflect.ownKeys(instance), ['a', 'nested']);
  });
});

describe('boolean schemas', () => {
  it('accepts anything with true and {}', () => {
    for (const value of [null, 0, 'x', [], {}, [1, { a: 2 }]]) {
      assertValid(true, value);
      assertValid({}, value);
    }
  });

  it('rejects anything with false, at $', () => {
    for (const value of [null, 0, 'x', [], {}]) {
      assert.deepEqual(issuesOf(false, value), [{ path: '$', keyword: 'false', message: 'no value is allowed here' }]);
    }
  });
});
