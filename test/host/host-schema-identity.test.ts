// A schema object changed in place between calls: the engine, the inline validator and a real worker_threads
// validator all see the change on the next call, and all find an unchanged or deeply frozen object by identity
// (docs/api.md, caching by identity). The worker validator names a known object by fingerprint; it must never
// name a changed one so, or the worker would answer with the schema as it was.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createEngine } from '../../src/engine/index.ts';
import { createInlineValidator } from '../../src/host/inline-validator.ts';
import { createValidator, spawnNodeWorker } from '../../src/host/node.ts';
import type { ValidationOutcome } from '../../src/protocol/index.ts';

interface Surface {
  readonly name: string;
  validate(schema: object, instance: unknown): Promise<ValidationOutcome>;
}

const engine = createEngine();
const inline = createInlineValidator();
const worker = createValidator({ spawn: spawnNodeWorker() });
after(() => {
  inline.close();
  worker.close();
});

const surfaces: Surface[] = [
  { name: 'engine', validate: async (schema, instance) => engine.validate(schema, instance) },
  { name: 'inline validator', validate: (schema, instance) => inline.validate(schema, instance) },
  { name: 'worker validator', validate: (schema, instance) => worker.validate(schema, instance) },
];

const statusOf = async (surface: Surface, schema: object, instance: unknown): Promise<string> =>
  (await surface.validate(schema, instance)).status;

describe('schema objects changed in place, on every surface', () => {
  for (const surface of surfaces) {
    it(`${surface.name}: sees a change made between calls, and the change undone`, async () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
      assert.equal(await statusOf(surface, schema, { a: 'x' }), 'valid');
      assert.equal(await statusOf(surface, schema, { a: 'x' }), 'valid', 'unchanged');
      schema.properties.a.type = 'number';
      assert.equal(await statusOf(surface, schema, { a: 'x' }), 'invalid', 'changed below the root');
      assert.equal(await statusOf(surface, schema, { a: 1 }), 'valid');
      schema.properties.a.type = 'string';
      assert.equal(await statusOf(surface, schema, { a: 'x' }), 'valid', 'changed back');
      schema.required.push('b');
      assert.equal(await statusOf(surface, schema, { a: 'x' }), 'invalid', 'an item added');
    });

    it(`${surface.name}: refuses once NaN stands where null stood`, async () => {
      const schema: { enum: unknown[] } = { enum: [null, 'a'] };
      assert.equal(await statusOf(surface, schema, null), 'valid');
      schema.enum[0] = Number.NaN;
      assert.equal(await statusOf(surface, schema, null), 'refused');
    });

    it(`${surface.name}: answers a deeply frozen schema the same every time`, async () => {
      const schema = Object.freeze({ type: 'string', minLength: 2 });
      for (let i = 0; i < 3; i++) assert.equal(await statusOf(surface, schema, 'x'), 'invalid');
      assert.equal(await statusOf(surface, schema, 'xy'), 'valid');
    });
  }

  it('worker validator: a change made before the request leaves is what the worker gets, and what it learns', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(await statusOf(surfaces[2] as Surface, schema, { a: 'x' }), 'valid');
    schema.properties.a.type = 'integer';
    const pending = worker.validate(schema, { a: 2.5 });
    schema.properties.a.type = 'number';
    // Not known as it is, so the object itself is sent, and cloned when its request is posted: as "number".
    assert.equal((await pending).status, 'valid', 'the schema as posted');
    assert.equal(await statusOf(surfaces[2] as Surface, schema, { a: 2.5 }), 'valid', 'named by what was posted');
    // Had the host recorded the object as it was asked ("integer") beside the fingerprint of what was posted,
    // this call would be named by the "number" fingerprint and pass.
    schema.properties.a.type = 'integer';
    assert.equal(await statusOf(surfaces[2] as Surface, schema, { a: 2.5 }), 'invalid', 'and back to integer');
  });
});
