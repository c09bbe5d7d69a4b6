// Issue 17: a visit's location costs the validator in proportion to its length (cfworker encodes each key into the
// child's pointers, and the invalid path reads every failure's locations), so the work estimate charges it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixtures } from '../../../bench/fixtures.ts';
import { checkSchema, compileSchema, resolvePolicy } from '../../../src/engine/index.ts';
import { estimateWork, freePathChars, pathCharsPerTick } from '../../../src/engine/work/estimate-work.ts';

const { maxWork } = resolvePolicy();
const overBudget = { path: '$', keyword: 'maxWork', message: `checking this value would take more than ${maxWork} steps` };

function work(schema: unknown, instance: unknown): number {
  const checked = checkSchema(schema, resolvePolicy(), 'annotate');
  if (checked.status === 'refused') assert.fail(checked.refusal.message);
  return estimateWork(checked.checked, instance, 1e12).work;
}

function verdict(schema: unknown, instance: unknown): unknown {
  const compiled = compileSchema(schema);
  if (compiled.status === 'refused') assert.fail(compiled.refusal.message);
  return compiled.schema.validate(instance);
}

const anyOfRefs = (definition: unknown, n: number) => ({
  $defs: { d: definition },
  anyOf: Array.from({ length: n }, () => ({ $ref: '#/$defs/d' })),
});

/** A chain of `depth` objects, each `{ a: … }`, ending in `leaf`, and the schema that walks it. */
function chain(depth: number, leaf: unknown): { schema: unknown; value: unknown } {
  let schema: unknown = { type: 'integer' };
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    schema = { type: 'object', additionalProperties: schema };
    value = { a: value };
  }
  return { schema, value };
}

describe('what a visit’s location costs', () => {
  it('charges a tick per 4 characters of a location past the first 128', () => {
    assert.equal(freePathChars, 128);
    assert.equal(pathCharsPerTick, 4);
    const schema = { additionalProperties: { type: 'integer' } };
    // The object's visit (16 ticks), its key listed (1) and the value's visit (16): 33 ticks, 3 units.
    assert.equal(work(schema, { k: 1 }), 3);
    assert.equal(work(schema, { ['k'.repeat(128)]: 1 }), 3);
    // 768 characters: 160 ticks more, 193 in all, 13 units.
    assert.equal(work(schema, { ['k'.repeat(768)]: 1 }), 13);
  });

  it('counts a `properties` name twice: the instance’s key and the schema’s, in both locations', () => {
    const long = 'k'.repeat(768);
    // Two visits, the key listed and the entry looked up (34 ticks), and (2 × 768 − 128) / 4 = 352 for the
    // location: 386 ticks, 25 units.
    assert.equal(work({ properties: { [long]: { type: 'integer' } } }, { [long]: 1 }), 25);
  });

  it('charges every visit below a long key, however deep', () => {
    const { schema, value } = chain(30, 1);
    const below = (value as { a: unknown }).a;
    const short = work(schema, { a: below });
    const long = work(schema, { ['k'.repeat(768)]: below });
    // 30 visits sit under the key (29 objects and the integer), the one at depth d with 768 + d characters.
    let ticks = 0;
    for (let d = 0; d < 30; d++) ticks += Math.floor((768 + d - freePathChars) / pathCharsPerTick);
    assert.ok(long - short >= Math.floor(ticks / 16) && long - short <= Math.ceil(ticks / 16), `${long - short} units for ${ticks} ticks`);
  });

  it('answers issue 17’s shape with maxWork: one 200,000-character name reached by 500 `$ref`s', () => {
    const long = 'k'.repeat(200_000);
    const schema = anyOfRefs({ type: 'object', properties: { [long]: { type: 'integer' } } }, 500);
    assert.deepEqual(verdict(schema, { [long]: 1 }), { status: 'invalid', issues: [overBudget] });
    assert.deepEqual(verdict(schema, { [long]: 'x' }), { status: 'invalid', issues: [overBudget] });
  });

  it('answers a long key at depth 30 and many long keys with maxWork', () => {
    const long = 'k'.repeat(200_000);
    const { schema, value } = chain(30, 1);
    const deep = anyOfRefs({ type: 'object', additionalProperties: schema }, 500);
    assert.deepEqual(verdict(deep, { [long]: value }), { status: 'invalid', issues: [overBudget] });
    const keys = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(10_000, 'q'));
    const many = anyOfRefs({ type: 'object', additionalProperties: { type: 'integer' } }, 500);
    assert.deepEqual(verdict(many, Object.fromEntries(keys.map((key) => [key, 1]))), { status: 'invalid', issues: [overBudget] });
    assert.deepEqual(verdict(many, Object.fromEntries(keys.map((key) => [key, 'x']))), { status: 'invalid', issues: [overBudget] });
  });

  it('still validates a long key the budget can afford', () => {
    const long = 'k'.repeat(20_000);
    const schema = anyOfRefs({ type: 'object', properties: { [long]: { type: 'integer' } } }, 4);
    assert.ok(work(schema, { [long]: 1 }) < maxWork);
    assert.deepEqual(verdict(schema, { [long]: 1 }), { status: 'valid' });
    const invalid = verdict(schema, { [long]: 'x' }) as { status: string; issues: { keyword: string }[] };
    assert.equal(invalid.status, 'invalid');
    assert.notEqual(invalid.issues[0]?.keyword, 'maxWork');
  });

  it('leaves ordinary instances where they were: the bench large fixture costs 20,445 and 8,059 units', () => {
    const large = fixtures.find((fixture) => fixture.name === 'large');
    assert.ok(large !== undefined);
    assert.equal(work(structuredClone(large.schema), large.valid), 20_445);
    assert.equal(work(structuredClone(large.schema), large.invalid), 8_059);
  });
});
