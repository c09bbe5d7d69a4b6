// Issue 20: the exact-number path (src/engine/core/exact-numbers.ts) resolves every `$ref` as the normal path does,
// the engine's own resolved targets included (cfworker's indexer misses `$ref`s under some `dependencies` keys).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../src/engine/index.ts';

const draft04 = 'http://json-schema.org/draft-04/schema#';
const draft06 = 'http://json-schema.org/draft-06/schema#';
const draft07 = 'http://json-schema.org/draft-07/schema#';
const draft2019 = 'https://json-schema.org/draft/2019-09/schema';
const draft2020 = 'https://json-schema.org/draft/2020-12/schema';

/** Keys cfworker's indexer takes for keywords or finds on Object.prototype, and one plain key for contrast. */
const keys = ['constructor', 'type', 'format', 'enum', 'required', 'toString', '__proto__', 'plain'];
const big = '9007199254740993';

interface Shape {
  readonly label: string;
  /** The schema as JSON text (JSON.parse keeps a `__proto__` key as an own property). */
  readonly schema: (key: string, target: string) => object;
}

const shapes: Shape[] = [
  ...[draft04, draft06, draft07].map(
    (dialect): Shape => ({
      label: `${dialect.slice(23, 31)} dependencies`,
      schema: (key, target) =>
        JSON.parse(
          `{"$schema":"${dialect}","dependencies":{${JSON.stringify(key)}:{"$ref":"#/definitions/x"}},"definitions":{"x":${target}}}`,
        ),
    }),
  ),
  ...[draft2019, draft2020].map(
    (dialect): Shape => ({
      label: `${dialect.slice(30, 37)} dependentSchemas`,
      schema: (key, target) =>
        JSON.parse(`{"$schema":"${dialect}","dependentSchemas":{${JSON.stringify(key)}:{"$ref":"#/$defs/x"}},"$defs":{"x":${target}}}`),
    }),
  ),
  {
    label: '2020-12 dependencies',
    schema: (key, target) => JSON.parse(`{"dependencies":{${JSON.stringify(key)}:{"$ref":"#/$defs/x"}},"$defs":{"x":${target}}}`),
  },
  {
    label: 'draft-07 dependencies under properties',
    schema: (key, target) =>
      JSON.parse(
        `{"$schema":"${draft07}","properties":{"o":{"dependencies":{${JSON.stringify(key)}:{"$ref":"#/definitions/x"}}}},"definitions":{"x":${target}}}`,
      ),
  },
];

/** An instance where the dependency applies: an object with `key` (and `more` members) where the shape checks it. */
const holding = (shape: Shape, key: string, n: string, more = ''): string => {
  const object = `{${JSON.stringify(key)}:${n}${more}}`;
  return shape.label.includes('under properties') ? `{"o":${object}}` : object;
};

describe('the exact-number path keeps $ref pinning', () => {
  for (const key of ['constructor', 'type', 'format', 'enum']) {
    it(`a dependencies key named ${key} keeps its $ref on the exact path (draft-07, validateJson)`, () => {
      const engine = createEngine();
      const schema = JSON.parse(`{"$schema":"${draft07}","dependencies":{"${key}":{"$ref":"#/definitions/x"}},"definitions":{"x":true}}`);
      assert.deepEqual(engine.validateJson(schema, big), { status: 'valid' });
      assert.deepEqual(engine.validateJson(schema, `{"${key}":${big}}`), { status: 'valid' });
    });

    it(`a dependencies key named ${key} keeps its $ref on the exact path in 2020-12`, () => {
      const engine = createEngine();
      const legacy = JSON.parse(`{"dependencies":{"${key}":{"$ref":"#/$defs/x"}},"$defs":{"x":true}}`);
      const current = JSON.parse(`{"dependentSchemas":{"${key}":{"$ref":"#/$defs/x"}},"$defs":{"x":true}}`);
      assert.deepEqual(engine.validateJson(legacy, big), { status: 'valid' });
      assert.deepEqual(engine.validateJson(current, big), { status: 'valid' });
    });
  }

  it('a dependencies key named constructor keeps its $ref on the exact path through validateArguments', () => {
    const engine = createEngine();
    const inputSchema = {
      $schema: draft07,
      type: 'object',
      dependencies: { constructor: { $ref: '#/definitions/x' } },
      definitions: { x: { required: ['q'] } },
    };
    const [verdict] = engine.compileTools([{ name: 'pinned', inputSchema }]);
    assert.equal(verdict?.status, 'accepted');
    const print = (verdict as { fingerprint: string }).fingerprint;
    assert.deepEqual(engine.validateArguments(print, { n: 9007199254740993n }), { status: 'valid' });
    assert.deepEqual(engine.validateArguments(print, { constructor: 9007199254740993n, q: 1 }), { status: 'valid' });
    const missing = engine.validateArguments(print, { constructor: 9007199254740993n });
    assert.equal(missing.status, 'invalid');
    assert.deepEqual(missing.status === 'invalid' ? missing.issues.map(({ path, keyword, message }) => ({ path, keyword, message })) : [], [
      { path: '$', keyword: 'required', message: 'missing required property "q"' },
    ]);
  });

  // Every shape and key: the exact path (a number past 2^53) answers as the normal path does with a small number.
  for (const shape of shapes) {
    it(`gives the normal path's answer on the exact path: ${shape.label}, every keyword-named key`, () => {
      const engine = createEngine();
      for (const key of keys) {
        for (const target of ['true', 'false', '{"required":["q"]}', '{"properties":{"q":{"maximum":1}}}']) {
          const schema = shape.schema(key, target);
          for (const [small, exact] of [
            ['1', big],
            [`{"q":1}`, `{"q":${big}}`],
          ]) {
            for (const instance of [(n: string) => n, (n: string) => holding(shape, key, n), (n: string) => `[${n}]`]) {
              const normal = engine.validateJson(schema, instance(small as string));
              const exactly = engine.validateJson(schema, instance(exact as string));
              const context = `${shape.label}, key ${key}, target ${target}, instance ${instance(exact as string)}`;
              assert.notEqual(normal.status, 'refused', context);
              const strip = (outcome: typeof normal): unknown =>
                outcome.status === 'invalid' ? outcome.issues.map(({ path, keyword }) => ({ path, keyword })) : outcome;
              assert.deepEqual(strip(exactly), strip(normal), context);
            }
          }
          // Where the target rejects the big number itself, the exact path must have walked into it.
          const context = `${shape.label}, key ${key}, target ${target}`;
          const beside = (n: string): ReturnType<typeof engine.validateJson> =>
            engine.validateJson(schema, holding(shape, key, '1', `,"q":${n}`));
          const expected = target === 'false' || target.includes('maximum') ? 'invalid' : 'valid';
          assert.equal(beside(big).status, expected, context);
          assert.equal(beside('1').status, target === 'false' ? 'invalid' : 'valid', context);
        }
      }
    });
  }
});
