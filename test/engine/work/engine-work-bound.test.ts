// The static ceiling on the work estimate (src/engine/work/work-bound.ts): the engine skips the co-walk when the ceiling
// for an instance's size is within the budget, so the ceiling must never be below what the co-walk would count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fixtures } from '../../../bench/fixtures.ts';
import { type CheckedSchema, checkSchema, compileSchema, resolvePolicy } from '../../../src/engine/index.ts';
import { copyJson } from '../../../src/engine/json/copy-json.ts';
import { estimateWork } from '../../../src/engine/work/estimate-work.ts';
import { ceilingTicks, withinBound, workBound } from '../../../src/engine/work/work-bound.ts';
import { instanceFor } from '../../helpers/instance-arbitrary.ts';
import { jsonArb } from '../../helpers/json-values.ts';
import { schemaArbitrary } from '../../helpers/schema-arbitrary.ts';

const limits = { maxBytes: 1 << 24, maxDepth: 64 };

function checked(schema: unknown): CheckedSchema {
  const result = checkSchema(schema, resolvePolicy(), 'annotate');
  if (result.status === 'refused') assert.fail(result.refusal.message);
  return result.checked;
}

/** The ceiling and the estimate for one instance, both in sixteenths of a visit (the estimate's ticks). */
function compare(schema: CheckedSchema, instance: unknown): { ceiling: number; counted: number } | undefined {
  const bound = workBound(schema);
  if (bound === null) return undefined;
  const copied = copyJson(instance, limits);
  if (!copied.ok) assert.fail(copied.detail);
  const counted = estimateWork(schema, copied.holder[0], 1e12).work * 16;
  // `work` is rounded up to whole visits.
  return { ceiling: Math.ceil(ceilingTicks(bound, copied) / 16) * 16, counted };
}

describe('the static work ceiling', () => {
  for (const dialect of ['2020-12', 'draft-07'] as const) {
    it(`is never below the estimate on generated ${dialect} schemas and instances (fast-check)`, () => {
      let bounded = 0;
      let runs = 0;
      const pairs = schemaArbitrary(dialect).chain((schema) =>
        fc.tuple(fc.constant(schema), fc.array(fc.oneof(instanceFor(schema), jsonArb), { minLength: 1, maxLength: 4 })),
      );
      fc.assert(
        fc.property(pairs, ([schema, instances]) => {
          const result = checkSchema(schema, resolvePolicy(), 'annotate');
          if (result.status === 'refused') return;
          runs++;
          if (workBound(result.checked) !== null) bounded++;
          for (const instance of instances) {
            const found = compare(result.checked, instance);
            if (found === undefined) continue;
            assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
          }
        }),
        { numRuns: 400, seed: 20261130 },
      );
      // Not vacuous: most generated schemas have a ceiling (the rest reference themselves or use uniqueItems).
      assert.ok(bounded > runs / 3, `only ${bounded} of ${runs} generated schemas have a ceiling`);
    });
  }

  it('holds on every applicator at once, on wide objects, long keys and long strings', () => {
    const schema = checked({
      properties: { a: { type: 'integer', enum: [1, 2, 3] }, b: { not: { type: 'string' } } },
      patternProperties: { '^x': { minimum: 1, pattern: 'a' }, y$: { maxLength: 3 } },
      additionalProperties: { anyOf: [{ type: 'boolean' }, { type: 'string', pattern: '^n', minLength: 2 }] },
      propertyNames: { maxLength: 300, pattern: '.' },
      dependentSchemas: { a: { required: ['b', 'c', 'd'] } },
      dependentRequired: { b: ['a', 'x'] },
      if: { required: ['a'] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      then: { properties: { a: { maximum: 5 } } },
      else: { minProperties: 1 },
      prefixItems: [{ type: 'string' }],
      items: { allOf: [{ type: 'integer' }, { minimum: 0 }] },
      contains: { const: { deep: [1, 2, 3] } },
      unevaluatedItems: false,
    });
    const long = 'n'.repeat(5_000);
    const instances: unknown[] = [
      { a: 3, b: 1, x1: 0, zz: true, other: long, [`x${'k'.repeat(200)}y`]: 'abc' },
      Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x${i}y`, i % 2 === 0 ? long.slice(0, i) : i])),
      ['a', 1, 2, { deep: [1, 2, 3] }, [[[]]]],
      long,
      null,
    ];
    for (const instance of instances) {
      const found = compare(schema, instance);
      assert.ok(found !== undefined);
      assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
    }
  });

  it('grows with the paths through the schema: 2^10 paths from nested allOf pairs', () => {
    const defs: Record<string, unknown> = { d0: { type: 'string', minLength: 1 } };
    for (let i = 1; i <= 10; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    const schema = checked({ $defs: defs, $ref: '#/$defs/d10' });
    const found = compare(schema, 'abc');
    assert.ok(found !== undefined);
    assert.ok(found.counted >= 1024 * 16, `the estimate counts every path (${found.counted})`);
    assert.ok(found.counted <= found.ceiling);
  });

  it('holds when patterns cost their program per character: pattern, patternProperties, propertyNames (fast-check)', () => {
    // Programs from one live instruction to hundreds, native and re2js, anchored and not.
    const costly = ['^a', 'x', '(.{300})+z', '^[0-9a-f]{8}-[0-9a-f]{4}$', '(?:\\p{L}x){20}y', '[ab]*a[ab]{40}', '^(a+)+$', 'k{1,3}\\d'];
    const pattern = fc.constantFrom(...costly);
    const leaf = fc.oneof(
      pattern.map((p) => ({ type: 'string', pattern: p })),
      fc.constant({ type: 'integer' }),
      fc.constant(true),
    );
    const schema = fc.record(
      {
        pattern,
        patternProperties: fc.dictionary(pattern, leaf, { maxKeys: 3 }),
        propertyNames: pattern.map((p) => ({ pattern: p })),
        additionalProperties: leaf,
        items: leaf,
        anyOf: fc.array(leaf, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'k', 'z', 'é', '😀', '1', '-'), maxLength: 400 });
    const instance = fc.oneof(text, fc.dictionary(text, fc.oneof(text, fc.integer()), { maxKeys: 20 }), fc.array(text, { maxLength: 20 }));
    let compared = 0;
    fc.assert(
      fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 3 }), (generated, instances) => {
        const result = checkSchema(generated, resolvePolicy(), 'annotate');
        if (result.status === 'refused') return;
        for (const value of instances) {
          const found = compare(result.checked, value);
          if (found === undefined) continue;
          compared++;
          assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
        }
      }),
      { numRuns: 300, seed: 20261201 },
    );
    assert.ok(compared > 300, `only ${compared} comparisons`);
  });

  it('holds when locations are long: long keys at depth, long schema names (fast-check)', () => {
    // Every key applicator, schema names long enough to count, and instances that nest long keys under each other.
    // Nothing here charges per byte (no pattern or length check; the pattern test above has long keys too), so
    // the linear part alone has no slack for the locations: without their charge in the ceiling, this fails.
    const name = fc.constantFrom('a', 'k'.repeat(150), 'n'.repeat(700));
    const leaf = fc.constantFrom<unknown>(
      { type: 'integer' },
      { type: 'string' },
      true,
      { anyOf: [{ type: 'string' }, {}] },
      { additionalProperties: { additionalProperties: {} } },
    );
    const schema = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record(
          {
            properties: fc.dictionary(name, tie('node'), { maxKeys: 2 }),
            additionalProperties: tie('node'),
            propertyNames: fc.constant({ type: 'string' }),
            dependentSchemas: fc.dictionary(name, fc.constant({ required: ['a'] }), { maxKeys: 1 }),
            items: tie('node'),
            allOf: fc.array(tie('node'), { maxLength: 1 }),
          },
          // Always applied to every key, so values under long keys are visited at depth.
          { requiredKeys: ['additionalProperties'] },
        ),
      ),
    })).node;
    const key = fc.oneof(
      name,
      fc.string({ unit: fc.constantFrom('k', 'n', 'é', '😀'), minLength: 100, maxLength: 900 }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'k'), minLength: 1, maxLength: 3 }),
    );
    const instance = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 8 },
        fc.oneof(fc.integer(), fc.string({ maxLength: 5 })),
        fc.dictionary(key, tie('value'), { maxKeys: 6 }),
        fc.array(tie('value'), { maxLength: 3 }),
      ),
    })).value;
    // Objects at the top, so the key applicators meet them.
    const object = fc.dictionary(key, fc.oneof(instance, fc.dictionary(key, instance, { minKeys: 1, maxKeys: 12 })), {
      minKeys: 1,
      maxKeys: 6,
    });
    let compared = 0;
    let long = 0;
    fc.assert(
      fc.property(schema, fc.array(object, { minLength: 1, maxLength: 3 }), (generated, instances) => {
        const result = checkSchema(generated, resolvePolicy(), 'annotate');
        if (result.status === 'refused') return;
        for (const value of instances) {
          const found = compare(result.checked, value);
          if (found === undefined) continue;
          compared++;
          if (found.counted > 0 && JSON.stringify(value).length > 300) long++;
          assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
        }
      }),
      { numRuns: 300, seed: 20261201 },
    );
    assert.ok(compared > 300 && long > 50, `only ${compared} comparisons, ${long} with long keys`);
  });

  it('counts the locations beyond its linear part: 100 values under one 700-character key', () => {
    // Each value below the long key carries its location; the linear part alone would be under the estimate.
    const schema = checked({ additionalProperties: { additionalProperties: { type: 'integer' } } });
    const instance = { ['k'.repeat(700)]: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`v${i}`, i])) };
    const bound = workBound(schema);
    const copied = copyJson(instance, limits);
    const found = compare(schema, instance);
    assert.ok(bound !== null && copied.ok && found !== undefined);
    const linear = bound.perValue * copied.values + bound.perByte * copied.bytes;
    assert.ok(found.counted > linear, `the estimate charges the locations (${found.counted} > ${linear})`);
    assert.ok(found.counted <= found.ceiling);
  });

  it('has none for schemas whose cost grows with the depth of the instance: recursion, $recursiveRef', () => {
    assert.equal(workBound(checked({ $defs: { node: { items: { $ref: '#/$defs/node' } } }, $ref: '#/$defs/node' })), null);
    assert.equal(
      workBound(
        checked({
          $schema: 'https://json-schema.org/draft/2019-09/schema',
          $recursiveAnchor: true,
          additionalProperties: { $recursiveRef: '#' },
        }),
      ),
      null,
    );
  });

  it('charges uniqueItems by the square of each array: a few tags skip the co-walk, a long list does not', () => {
    const schema = checked({ properties: { tags: { type: 'array', uniqueItems: true, items: { type: 'string' } } } });
    const bound = workBound(schema);
    assert.equal(bound?.scans, 1);
    const plain = workBound(checked({ properties: { tags: { type: 'array', items: { type: 'string' } } } }));
    assert.ok(plain !== null && plain.scans === 0);
    const few = copyJson({ tags: ['a', 'b', 'a'] }, limits);
    assert.ok(few.ok);
    assert.ok(ceilingTicks(bound, few) > ceilingTicks(plain, few));
    assert.equal(withinBound(bound, few, resolvePolicy().maxWork), true);
    // 1,000 tags are well within the ceiling of the plain schema, but their pairwise scan is not.
    const many = copyJson({ tags: Array.from({ length: 1000 }, (_, i) => `t${i}`) }, limits);
    assert.ok(many.ok);
    assert.equal(withinBound(plain, many, resolvePolicy().maxWork), true);
    assert.equal(withinBound(bound, many, resolvePolicy().maxWork), false);
    for (const instance of [{ tags: ['a', 'b', 'a'] }, { tags: Array.from({ length: 40 }, () => 'same') }]) {
      const found = compare(schema, instance);
      assert.ok(found !== undefined && found.counted <= found.ceiling, `estimate ${found?.counted} over ${found?.ceiling}`);
    }
  });

  it('counts the uniqueItems scans one array can get, not the visits of the whole instance', () => {
    const scans = (schema: unknown): number | undefined => workBound(checked(schema))?.scans;
    const unique = { uniqueItems: true };
    // Each array meets one scan, though there are three: the tags, their items, the other property.
    assert.equal(scans({ properties: { a: { ...unique, items: unique }, b: unique } }), 1);
    // Both halves of an allOf scan the same array; a reference used twice counts twice.
    assert.equal(scans({ allOf: [unique, unique] }), 2);
    assert.equal(scans({ $defs: { u: unique }, allOf: [{ $ref: '#/$defs/u' }, { $ref: '#/$defs/u' }], ...unique }), 3);
    // An item meets `items` and `contains`; a property its entry and each pattern it matches.
    assert.equal(scans({ items: unique, contains: unique }), 2);
    assert.equal(scans({ properties: { a: unique }, patternProperties: { '^a': unique, a$: unique }, additionalProperties: unique }), 3);
    // A scan below the root adds to those the parent's other plans give the same child.
    assert.equal(scans({ allOf: [{ items: unique }, { items: { allOf: [unique, unique] } }] }), 3);
    assert.equal(scans({ items: { type: 'string' } }), 0);
  });

  it('holds with uniqueItems anywhere, late duplicates and structured items (fast-check)', () => {
    // Every applicator that can reach an array, uniqueItems where it multiplies most, and instances whose
    // duplicates come last (the scan's worst case) among structured items with long strings.
    const unique = fc.constant<unknown>({ uniqueItems: true });
    const schema = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        unique,
        fc.constant<unknown>({ type: 'array' }),
        fc.record(
          {
            uniqueItems: fc.boolean(),
            items: tie('node'),
            prefixItems: fc.array(tie('node'), { maxLength: 2 }),
            contains: tie('node'),
            allOf: fc.array(tie('node'), { maxLength: 3 }),
            anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }),
            additionalProperties: tie('node'),
            patternProperties: fc.dictionary(fc.constantFrom('^k', 'k'), tie('node'), { maxKeys: 2 }),
          },
          { requiredKeys: [] },
        ),
      ),
    })).node;
    const leaf = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('k', 'kk', 'x'.repeat(200)), fc.constant(null));
    const instance = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 5 },
        leaf,
        fc.dictionary(fc.constantFrom('k', 'kx', 'ak'), tie('value'), { maxKeys: 3 }),
        fc.array(tie('value'), { maxLength: 6 }).map((items) => (items.length > 1 ? [...items, items[0]] : items)),
      ),
    })).value;
    let compared = 0;
    let scanned = 0;
    fc.assert(
      fc.property(
        schema,
        fc.array(fc.array(instance, { minLength: 2, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
        (generated, instances) => {
          const result = checkSchema(generated, resolvePolicy(), 'annotate');
          if (result.status === 'refused') return;
          const bound = workBound(result.checked);
          for (const value of [...instances, ...instances.map((items) => ({ k: items, kx: [items, items] }))]) {
            const found = compare(result.checked, value);
            if (found === undefined || bound === null) continue;
            compared++;
            if (bound.scans > 0) scanned++;
            assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
          }
        },
      ),
      { numRuns: 400, seed: 20261204 },
    );
    assert.ok(compared > 400 && scanned > 200, `only ${compared} comparisons, ${scanned} under uniqueItems`);
  });

  it('holds when one list meets 64 full pairwise scans: uniqueItems in place, the duplicate last', () => {
    const schema = checked({ allOf: Array.from({ length: 64 }, () => ({ uniqueItems: true })) });
    assert.equal(workBound(schema)?.scans, 64);
    const list = [...Array.from({ length: 41 }, (_, i) => i), 40];
    const found = compare(schema, list);
    assert.ok(found !== undefined);
    assert.ok(found.counted > 64 * 41 * 42, `the estimate charges each scan (${found.counted})`);
    assert.ok(found.counted <= found.ceiling, `estimate ${found.counted} ticks over the ceiling ${found.ceiling}`);
  });

  it("charges each array's hashing and scans by its own items, values and bytes", () => {
    const once = checked({ properties: { list: { uniqueItems: true } } });
    // Eight scans of each list: there the scans, not the hashing, decide the ceiling.
    const eight = checked({ properties: { list: { allOf: Array.from({ length: 8 }, () => ({ uniqueItems: true })) } } });
    assert.equal(workBound(eight)?.scans, 8);
    const item = (i: number) => Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`k${k}`, `${i}-${k}`]));
    const cases: [CheckedSchema, unknown][] = [
      // One item: nothing to compare, but hashing reads its 64,000 characters.
      [once, { list: ['x'.repeat(64_000)] }],
      // 40 objects whose last two are equal: each scan runs to row 39, comparing whole objects where hashes meet.
      [eight, { list: [...Array.from({ length: 39 }, (_, i) => item(i)), item(38)] }],
      // The same nested one level down, beside a long flat list of numbers.
      [eight, { list: [[...Array.from({ length: 20 }, (_, i) => item(i)), item(19)], Array.from({ length: 300 }, (_, i) => i)] }],
    ];
    for (const [schema, instance] of cases) {
      const found = compare(schema, instance);
      assert.ok(found !== undefined && found.counted <= found.ceiling, `estimate ${found?.counted} over ${found?.ceiling}`);
    }
  });

  it('lets a short unique list skip the co-walk under many branches that may scan it', () => {
    // 60 variants of one object behind references, each with a unique list: one array can get 60 scans, so a
    // ceiling that charged each scan the square of the whole instance would send every call to the co-walk.
    const variant = (i: number) => ({
      type: 'object',
      properties: {
        kind: { const: `v${i}` },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        size: { type: 'integer' },
      },
    });
    const $defs = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, variant(i)]));
    const schema = checked({ $defs, anyOf: Array.from({ length: 60 }, (_, i) => ({ $ref: `#/$defs/v${i}` })) });
    const call = {
      kind: 'v59',
      tags: ['a', 'b', 'c'],
      size: 3,
      extra: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i])),
    };
    const bound = workBound(schema);
    const copied = copyJson(call, limits);
    assert.ok(bound !== null && copied.ok && bound.scans === 60, `scans ${bound?.scans}`);
    assert.ok(copied.values >= 35);
    assert.equal(withinBound(bound, copied, resolvePolicy().maxWork), true);
    const found = compare(schema, call);
    assert.ok(found !== undefined && found.counted <= found.ceiling);
  });

  it('lets a tool call with a short unique list skip the co-walk', () => {
    // A flat tool schema with one `uniqueItems` list among a dozen fields, and a typical call of ~30 values.
    const schema = checked({
      type: 'object',
      properties: {
        labels: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 50 },
        owners: { type: 'array', items: { type: 'string' } },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, open: { type: 'boolean' } } } },
        options: { type: 'object', properties: { mode: { enum: ['fast', 'safe'] }, retries: { type: 'integer' } } },
        filter: {
          anyOf: [
            { type: 'object', required: ['field'] },
            { type: 'object', required: ['and'] },
          ],
        },
      },
    });
    const call = {
      labels: ['bug', 'ui', 'p1'],
      owners: ['ana', 'bo'],
      items: Array.from({ length: 4 }, (_, i) => ({ id: `i${i}`, open: i % 2 === 0 })),
      options: { mode: 'fast', retries: 2 },
      filter: { and: [{}, { field: 'x' }] },
    };
    const bound = workBound(schema);
    const copied = copyJson(call, limits);
    assert.ok(bound !== null && copied.ok && bound.scans === 1);
    assert.ok(copied.values >= 25);
    assert.equal(withinBound(bound, copied, resolvePolicy().maxWork), true);
    const found = compare(schema, call);
    assert.ok(found !== undefined && found.counted <= found.ceiling);
  });

  it('finds duplicates under a ceiling that counts uniqueItems: the pairwise scan still runs', () => {
    const result = compileSchema({ properties: { tags: { type: 'array', uniqueItems: true } } });
    assert.ok(result.status === 'accepted');
    const outcome = result.schema.validate({ tags: ['a', 'b', 'a'] });
    assert.equal(outcome.status, 'invalid');
    assert.deepEqual(outcome.status === 'invalid' && outcome.issues.map((issue) => [issue.path, issue.keyword]), [
      ['$.tags', 'uniqueItems'],
    ]);
    assert.equal(result.schema.validate({ tags: ['a', 'b', { a: 1 }, { a: 2 }] }).status, 'valid');
  });

  it('lets a small tool argument skip the co-walk, and never a large one', () => {
    const small = fixtures.find((fixture) => fixture.name === 'small');
    assert.ok(small !== undefined);
    const schema = checked(structuredClone(small.schema));
    const bound = workBound(schema);
    assert.ok(bound !== null);
    const copied = copyJson(small.valid, limits);
    assert.ok(copied.ok);
    assert.equal(withinBound(bound, copied, resolvePolicy().maxWork), true);
    // 100,000 unknown properties: far past the ceiling, so the estimate runs (and answers within the budget).
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const copiedWide = copyJson(wide, limits);
    assert.ok(copiedWide.ok);
    assert.equal(withinBound(bound, copiedWide, resolvePolicy().maxWork), false);
  });

  it('never lets an instance past the budget: the answer is the same with a budget just under the estimate', () => {
    // 30 string fields under two patterns each: the estimate and the ceiling both grow with the keys.
    const schema = { type: 'object', patternProperties: { '^f': { type: 'string' }, '\\d$': { minLength: 1 } } };
    const instance = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'v']));
    const found = compare(checked(schema), instance);
    assert.ok(found !== undefined);
    const visits = found.counted / 16;
    const tight = compileSchema(schema, { policy: resolvePolicy({ maxWork: visits - 1 }) });
    const roomy = compileSchema(schema, { policy: resolvePolicy({ maxWork: Math.ceil(found.ceiling / 16) }) });
    assert.ok(tight.status === 'accepted' && roomy.status === 'accepted');
    const refused = tight.schema.validate(instance);
    assert.deepEqual(refused.status === 'valid' ? [] : refused.issues.map((issue) => issue.keyword), ['maxWork']);
    assert.deepEqual(roomy.schema.validate(instance), { status: 'valid' });
  });
});
