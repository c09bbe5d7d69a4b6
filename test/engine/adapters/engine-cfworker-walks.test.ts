// How the cfworker adapter walks an instance (issue 21): the plain-false twin is copied on the first validation,
// never by compile, and only when the schema has a `false`; a flat schema is walked once, in full, and again only
// where a `false` unit cannot be placed; a short-circuit walk's units are reported as they are only when they are
// all the full walk would write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { walkCounts } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
import { compileSchema, type Issue } from '../../../src/engine/index.ts';

function compiled(schema: unknown) {
  const result = compileSchema(schema);
  assert.equal(result.status, 'accepted');
  return result.status === 'accepted' ? result.schema : assert.fail('refused');
}

const issuesOf = (schema: ReturnType<typeof compiled>, instance: unknown): readonly Issue[] => {
  const verdict = schema.validate(instance);
  return verdict.status === 'invalid' ? verdict.issues : [];
};

/** An `anyOf` makes a schema not flat: an alternative may fail while the instance passes. */
const union = {
  type: 'object',
  properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['id'],
  additionalProperties: false,
};

/** How many walks and twin copies `run` costs. */
function counted(run: () => void): { twins: number; short: number; full: number } {
  const before = { ...walkCounts };
  run();
  return { twins: walkCounts.twins - before.twins, short: walkCounts.short - before.short, full: walkCounts.full - before.full };
}

describe('the plain-false twin', () => {
  it('is not copied by compile, and is copied once, by the first validation', () => {
    let schema: ReturnType<typeof compiled> | undefined;
    assert.equal(counted(() => (schema = compiled(union))).twins, 0, 'compile copied a twin');
    const first = counted(() => assert.equal(schema?.validate({ id: 7 }).status, 'valid'));
    assert.deepEqual(first, { twins: 1, short: 1, full: 0 });
    const later = counted(() => {
      assert.equal(schema?.validate({ id: 'x', a: 1 }).status, 'valid');
      assert.equal(schema?.validate({ id: null }).status, 'invalid');
    });
    assert.equal(later.twins, 0);
  });

  it('is the schema itself when it has no false', () => {
    const schema = compiled({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } });
    const walks = counted(() =>
      assert.deepEqual(issuesOf(schema, { a: null }), [{ path: '$.a', keyword: 'type', message: 'got null, want string or integer' }]),
    );
    assert.deepEqual(walks, { twins: 0, short: 1, full: 1 });
  });
});

describe('a flat schema', () => {
  it('is walked once, in full, on its twin, whose false units are placed as the stand-ins would be', () => {
    const schema = compiled({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string', enum: ['x', 'y'] }, gone: false },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    const valid = counted(() => assert.equal(schema.validate({ a: 1, b: 'x' }).status, 'valid'));
    assert.deepEqual(valid, { twins: 1, short: 0, full: 1 });
    const wrong = counted(() =>
      assert.deepEqual(issuesOf(schema, { a: 'one', extra: true, gone: 1 }), [
        { path: '$', keyword: 'required', message: 'missing required property "b"' },
        { path: '$.a', keyword: 'type', message: 'got string, want integer' },
        { path: '$.gone', keyword: 'properties', message: 'property not allowed' },
        { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
      ]),
    );
    assert.deepEqual(wrong, { twins: 0, short: 0, full: 1 });
  });

  it("is walked again on the engine's copy when a false sits where its unit cannot place it, then on it alone", () => {
    // Under `patternProperties` the twin's unit does not say which pattern held the `false`.
    const schema = compiled({ type: 'object', patternProperties: { '^x-': false, '^y-': { type: 'string' } } });
    const issues = [
      { path: '$["x-a"]', keyword: 'patternProperties', message: 'property not allowed' },
      { path: '$["y-b"]', keyword: 'type', message: 'got integer, want string' },
    ];
    const first = counted(() => assert.deepEqual(issuesOf(schema, { 'x-a': 1, 'y-b': 2 }), issues));
    assert.deepEqual(first, { twins: 1, short: 0, full: 2 });
    const next = counted(() => assert.deepEqual(issuesOf(schema, { 'x-a': 1, 'y-b': 2 }), issues));
    assert.deepEqual(next, { twins: 0, short: 0, full: 1 });
  });

  it('is told by the subschemas a walk can apply: an unused definition with an anyOf leaves a schema flat', () => {
    const library = { $defs: { either: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, name: { type: 'string' } } };
    const flat = compiled({
      ...library,
      type: 'object',
      // A property named like a discarding keyword is data, and so is an enum value.
      properties: { anyOf: { $ref: '#/$defs/name' }, mode: { enum: ['oneOf', 'not'] } },
      additionalProperties: false,
    });
    const once = counted(() => {
      assert.equal(flat.validate({ anyOf: 'x', mode: 'not' }).status, 'valid');
      assert.deepEqual(issuesOf(flat, { anyOf: 1, extra: 0 }), [
        { path: '$.anyOf', keyword: 'type', message: 'got integer, want string' },
        { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
      ]);
    });
    assert.equal(once.short, 0, 'a flat schema was walked short');
    // The same library reached by a reference: an alternative may fail while the instance passes.
    const reached = compiled({ ...library, type: 'object', properties: { id: { $ref: '#/$defs/either' } } });
    const walks = counted(() => {
      assert.equal(reached.validate({ id: 7 }).status, 'valid');
      assert.deepEqual(issuesOf(reached, { id: null }), [{ path: '$.id', keyword: 'type', message: 'got null, want string or integer' }]);
    });
    assert.deepEqual(walks, { twins: 0, short: 2, full: 1 });
  });
});

describe('the short-circuit walk of a schema that is not flat', () => {
  it('is reported as it is when nothing stopped it early', () => {
    const schema = compiled(union);
    assert.deepEqual(issuesOf(schema, 'not an object'), [{ path: '$', keyword: 'type', message: 'got string, want object' }]);
    assert.deepEqual(issuesOf(schema, {}), [{ path: '$', keyword: 'required', message: 'missing required property "id"' }]);
  });

  it('is walked again in full when a failed property ended its loop', () => {
    // The short walk stops at `a`; the full one reports `b` and the unknown key too.
    assert.deepEqual(issuesOf(compiled(union), { id: 1, a: 'x', b: 'y', c: 0 }), [
      { path: '$.a', keyword: 'type', message: 'got string, want integer' },
      { path: '$.b', keyword: 'type', message: 'got string, want integer' },
      { path: '$.c', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
  });

  it("is walked again in full when it met a plain false, which only the engine's copy locates", () => {
    // The twin's `false` says nothing of where it sat; the copy's stand-in is at `allOf/0`.
    const schema = compiled({ not: { type: 'string' }, allOf: [false] });
    assert.deepEqual(issuesOf(schema, 5), [{ path: '$', keyword: 'false', message: 'no value is allowed here' }]);
  });
});
