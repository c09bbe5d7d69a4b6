// How the cfworker adapter walks an instance (issue 21): the verdict twin is built on the first validation that
// needs it, never by compile; a flat schema is walked once, in full; a short-circuit walk's units are reported as
// they are only when they are all the full walk would write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { twinCount } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
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

describe('the verdict twin', () => {
  it('is not built by compile, and is built once, by the first validation that needs it', () => {
    const before = twinCount.built;
    const schema = compiled(union);
    assert.equal(twinCount.built, before, 'compile built a twin');
    assert.equal(schema.validate({ id: 7 }).status, 'valid');
    assert.equal(twinCount.built, before + 1);
    assert.equal(schema.validate({ id: 'x', a: 1 }).status, 'valid');
    assert.equal(schema.validate({ id: null }).status, 'invalid');
    assert.equal(twinCount.built, before + 1);
  });

  it('is never built for a flat schema, which is walked once, in full', () => {
    const before = twinCount.built;
    const schema = compiled({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string', enum: ['x', 'y'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    assert.equal(schema.validate({ a: 1, b: 'x' }).status, 'valid');
    assert.deepEqual(issuesOf(schema, { a: 'one', extra: true }), [
      { path: '$', keyword: 'required', message: 'missing required property "b"' },
      { path: '$.a', keyword: 'type', message: 'got string, want integer' },
      { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
    assert.equal(twinCount.built, before);
  });

  it('reads only the subschemas a walk can apply: an unused definition with an anyOf leaves a schema flat', () => {
    const library = { $defs: { either: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, name: { type: 'string' } } };
    const before = twinCount.built;
    const flat = compiled({
      ...library,
      type: 'object',
      // A property named like a discarding keyword is data, and so is an enum value.
      properties: { anyOf: { $ref: '#/$defs/name' }, mode: { enum: ['oneOf', 'not'] } },
      additionalProperties: false,
    });
    assert.equal(flat.validate({ anyOf: 'x', mode: 'not' }).status, 'valid');
    assert.deepEqual(issuesOf(flat, { anyOf: 1, extra: 0 }), [
      { path: '$.anyOf', keyword: 'type', message: 'got integer, want string' },
      { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
    assert.equal(twinCount.built, before, 'a twin was built for a flat schema');
    // The same library reached by a reference: an alternative may fail while the instance passes.
    const reached = compiled({ ...library, type: 'object', properties: { id: { $ref: '#/$defs/either' } } });
    assert.equal(reached.validate({ id: 7 }).status, 'valid');
    assert.equal(twinCount.built, before + 1);
    assert.deepEqual(issuesOf(reached, { id: null }), [{ path: '$.id', keyword: 'type', message: 'got null, want string or integer' }]);
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
