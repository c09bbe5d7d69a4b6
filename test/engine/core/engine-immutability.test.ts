// Schemas are never mutated (docs/architecture.md#schema-policy-and-refusal-codes): the engine stamps only its own copy, whatever the validator library does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, createEngine } from '../../../src/engine/index.ts';
import { accept, deepFreeze, lossless, ownKeysDeep } from '../../fixtures/engine/helpers.ts';

/** A schema that exercises everything the engine rewrites in its copy: ids, refs, false, formats, dialect drops. */
function busySchema(): Record<string, unknown> {
  return {
    $id: 'https://example.com/order.json',
    type: 'object',
    properties: {
      id: { $ref: '#/$defs/id' },
      email: { type: 'string', format: 'email' },
      secret: false,
      lines: { type: 'array', items: [{ type: 'string' }], maxItems: 3 },
      nested: { $ref: 'https://example.com/item.json' },
      anchored: { $ref: '#positive' },
      legacy: { required: true },
    },
    $defs: {
      id: { type: 'integer', minimum: 1 },
      item: { $id: 'https://example.com/item.json', type: 'object', properties: { self: { $ref: '#' } } },
      positive: { $anchor: 'positive', minimum: 0 },
    },
    required: ['id'],
  };
}

function draft07Schema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'http://example.com/root.json',
    definitions: { count: { $id: '#count', type: 'integer' } },
    properties: {
      n: { $ref: '#/definitions/count', maximum: 1 },
      c: { $ref: '#count' },
      q: { dependentRequired: { a: ['b'] } },
      t: { items: [{ type: 'string' }], additionalItems: false },
    },
  };
}

describe('compiling leaves the schema untouched', () => {
  for (const [label, make] of [
    ['a 2020-12 schema with $id, $anchor, false and formats', busySchema],
    ['a draft-07 schema with $ref siblings and foreign keywords', draft07Schema],
  ] as const) {
    it(`keeps ${label} deep-equal, with no added own keys`, () => {
      const schema = make();
      const before = structuredClone(schema);
      const keysBefore = ownKeysDeep(schema);
      const compiled = accept(schema);
      compiled.validate({ id: 'x', email: 'nope', secret: 1, lines: [1, 2, 3, 4] });
      compiled.validate({ n: 5, c: 'x', q: { a: 1 }, t: ['a', 'b'] });
      assert.deepEqual(schema, before);
      assert.deepEqual(ownKeysDeep(schema), keysBefore);
      assert.ok(!ownKeysDeep(schema).some((line) => line.includes('__absolute')));
    });

    it(`compiles and validates ${label} when deep-frozen`, () => {
      const frozen = deepFreeze(make());
      const thawed = make();
      const instance = { id: 'x', n: 'x', lines: [1], t: ['a', 'b'] };
      assert.deepEqual(accept(frozen).validate(instance), accept(thawed).validate(instance));
    });
  }

  it('enforces the frozen schema: a bad id is reported at $.id', () => {
    const verdict = accept(deepFreeze(busySchema())).validate({ id: 0 });
    assert.deepEqual(verdict, { status: 'invalid', issues: [{ path: '$.id', keyword: 'minimum', message: 'got 0, want at least 1' }] });
  });

  it('leaves a boolean-heavy schema untouched (false becomes an object only in the copy)', () => {
    const schema = { properties: { a: false, b: true }, items: false, additionalProperties: false };
    const before = structuredClone(schema);
    accept(schema).validate({ a: 1, c: 2 });
    assert.deepEqual(schema, before);
    assert.equal(schema.properties.a, false);
  });

  it('leaves big-integer schemas untouched, LosslessNumbers included', () => {
    const schema = lossless('{"maximum": 9007199254740993, "multipleOf": 3, "enum": [9007199254740993, 1]}') as Record<string, unknown>;
    const keysBefore = ownKeysDeep(schema);
    const text = JSON.stringify(schema);
    accept(schema).validate(lossless('9007199254740993'));
    assert.equal(JSON.stringify(schema), text);
    assert.deepEqual(ownKeysDeep(schema), keysBefore);
  });

  it('leaves a refused schema untouched', () => {
    const schema = { properties: { a: { $ref: 'https://example.com/x.json' } }, const: 1 };
    const before = structuredClone(schema);
    assert.equal(compileSchema(schema).status, 'refused');
    assert.deepEqual(schema, before);
    assert.deepEqual(ownKeysDeep(schema), ownKeysDeep(before));
  });

  it('leaves tools untouched through compileTools', async () => {
    const tools = [{ name: 'a', inputSchema: busySchema(), outputSchema: draft07Schema() }];
    const before = structuredClone(tools);
    const keysBefore = ownKeysDeep(tools);
    const engine = createEngine();
    const [verdict] = await engine.compileTools(deepFreeze(structuredClone(tools)));
    assert.equal(verdict?.status, 'accepted');
    await engine.compileTools(tools);
    assert.deepEqual(tools, before);
    assert.deepEqual(ownKeysDeep(tools), keysBefore);
  });
});
