// Issue #9, instance side: work bounded as expansion × instance size, uniqueItems by hashing, and the
// unevaluated* placements the validator would decide with annotations from the wrong scope.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dereference, type Schema, type SchemaDraft, validate } from '@cfworker/json-schema';
import fc from 'fast-check';
import { fixtures } from '../../../bench/fixtures.ts';
import { checkSchema, compileSchema, policyHash, resolvePolicy } from '../../../src/engine/index.ts';
import type { SchemaValidatorAdapter } from '../../../src/engine/schema/schema-validator-adapter.ts';
import { estimateWork } from '../../../src/engine/work/estimate-work.ts';
import { findDuplicates } from '../../../src/engine/work/find-duplicates.ts';
import { accept, issuesOf, lossless, refuse } from '../../fixtures/engine/helpers.ts';
import { buildLargeSchema } from '../../fixtures/real-world/large-schema.ts';
import { instanceFor } from '../../helpers/instance-arbitrary.ts';
import { schemaArbitrary } from '../../helpers/schema-arbitrary.ts';

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const overBudget = (n: number) => ({ path: '$', keyword: 'maxWork', message: `checking this value would take more than ${n} steps` });
const { maxWork } = resolvePolicy();

function estimate(schema: unknown, instance: unknown, budget = 1e12) {
  const checked = checkSchema(schema, resolvePolicy(), 'annotate');
  if (checked.status === 'refused') assert.fail(checked.refusal.message);
  return estimateWork(checked.checked, instance, budget);
}

/** Runs cfworker's full mode on a copy of the schema, counting every visit of an object subschema. */
function countVisits(schema: unknown, instance: unknown, draft: SchemaDraft): number {
  let counting = false;
  let visits = 0;
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      // `$ref` is the first name cfworker destructures from every subschema it visits.
      if (counting && key === '$ref') visits++;
      return Reflect.get(target, key, receiver);
    },
  };
  const wrap = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map(wrap);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = wrap(child);
    return new Proxy(out, handler);
  };
  const root = wrap(schema) as Schema;
  const lookup = dereference(root);
  pinSkippedRefs(root, Object.keys(lookup)[0] ?? '');
  counting = true;
  validate(instance, root, draft, lookup, false);
  return visits;
}

/**
 * cfworker's indexer skips subschemas under some keys (`dependencies` entries named `constructor`, for one), so
 * their `$ref`s never get an absolute URI and fail to resolve; the engine's adapter pins them (pinMissedRefs), and
 * so does this oracle, for the same-document references the generated schemas use.
 */
function pinSkippedRefs(root: unknown, base: string): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#') && record.__absolute_ref__ === undefined)
      record.__absolute_ref__ = `${base.split('#')[0]}${record.$ref}`;
    for (const child of Object.values(record)) pending.push(child);
  }
}

/** `$defs` d0..d11 where each level applies the one below twice: 2^11 leaves per value. */
function doublingTree(): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: 'integer' } };
  for (let i = 1; i <= 11; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { $defs: defs, type: 'array', items: { $ref: '#/$defs/d11' } };
}

describe('maxWork', () => {
  it('is a policy field: resolved, checked and part of the policy hash', () => {
    assert.equal(typeof maxWork, 'number');
    assert.equal(resolvePolicy({ maxWork: 7 }).maxWork, 7);
    assert.throws(() => resolvePolicy({ maxWork: 0 }), /policy\.maxWork must be a positive integer, got 0/);
    assert.notEqual(policyHash(resolvePolicy()), policyHash(resolvePolicy({ maxWork: maxWork + 1 })));
  });

  it('turns 1,000 anyOf branches over 12,000 items into one maxWork issue, without running the validator', () => {
    const schema = { items: { anyOf: range(1000, (i) => ({ type: 'string', minLength: i })) } };
    const zeros = range(12_000, () => 0);
    assert.deepEqual(issuesOf(schema, zeros), [overBudget(maxWork)]);
    // The estimate stops soon after the budget: it costs O(budget), not O(items × branches).
    const stopped = estimate(schema, zeros, 50_000);
    assert.equal(stopped.overBudget, true);
    assert.ok(stopped.work < 60_000, `${stopped.work}`);
    assert.ok(estimate(schema, zeros).work >= 12_000 * 1000);
  });

  it('turns a 756-byte doubling tree over 10,000 items into one maxWork issue', () => {
    const schema = doublingTree();
    assert.ok(JSON.stringify(schema).length < 800);
    assert.deepEqual(
      issuesOf(
        schema,
        range(10_000, (i) => i),
      ),
      [overBudget(maxWork)],
    );
    assert.deepEqual(accept(schema).validate(range(2, (i) => i)), { status: 'valid' });
  });

  it('names the budget of the policy in force', () => {
    const policy = resolvePolicy({ maxWork: 100 });
    assert.deepEqual(
      issuesOf(
        { items: { type: 'integer' } },
        range(200, (i) => i),
        { policy },
      ),
      [overBudget(100)],
    );
    assert.deepEqual(accept({ items: { type: 'integer' } }, { policy }).validate(range(50, (i) => i)), { status: 'valid' });
  });

  it('survives 6,000 required properties on an empty object with capped issues', () => {
    const schema = { type: 'object', required: range(6000, (i) => `field${i}`) };
    const issues = issuesOf(schema, {});
    assert.ok(issues.length <= resolvePolicy().maxIssues + 1, `${issues.length}`);
    assert.equal(issues[0]?.keyword, 'required');
  });

  it('admits a real-world batch (10 resources against 39 anyOf branches) inside the budget', () => {
    const schema = buildLargeSchema();
    const resource = (i: number) => ({
      name: `web-${i}`,
      region: 'eu-west-1',
      labels: Object.fromEntries(range(8, (j) => [`label-${j}`, `value-${j}`])),
      tags: range(8, (j) => `tag-${j}`),
      ports: range(4, (j) => ({ port: 8000 + j, protocol: 'tcp' })),
    });
    const instance = { resources: range(10, resource) };
    const found = estimate(schema, instance);
    assert.equal(found.overBudget, false);
    assert.ok(found.work < maxWork, `${found.work}`);
    assert.deepEqual(accept(schema).validate(instance), { status: 'valid' });
  });

  it('admits the bench fixtures, valid and invalid, with room to spare', () => {
    for (const fixture of fixtures) {
      for (const instance of [fixture.valid, fixture.invalid]) {
        const found = estimate(fixture.schema, instance);
        assert.ok(found.work * 2 < maxWork, `${fixture.name}: ${found.work}`);
      }
      assert.deepEqual(accept(fixture.schema).validate(fixture.valid), { status: 'valid' });
      assert.equal(accept(fixture.schema).validate(fixture.invalid).status, 'invalid');
    }
  });

  it('turns a RangeError from the validator into a typed issue', () => {
    const throwing: SchemaValidatorAdapter = {
      id: 'throws-range-error',
      compile: () => ({
        status: 'accepted',
        compiled: {
          validate() {
            throw new RangeError('Maximum call stack size exceeded');
          },
        },
      }),
    };
    const compiled = compileSchema({ type: 'integer' }, { adapter: throwing });
    assert.ok(compiled.status === 'accepted');
    assert.deepEqual(compiled.schema.validate(1), {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'maxWork', message: 'checking this value needs deeper recursion than the runtime allows' }],
    });
  });

  it('answers a 4,000-long in-place $ref chain with an issue, never a bare RangeError', () => {
    const defs: Record<string, unknown> = { d0: { type: 'integer' } };
    for (let i = 1; i <= 4000; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i - 1}` };
    const verdict = accept({ $defs: defs, items: { $ref: '#/$defs/d4000' } }).validate([1, 2, 3]);
    // Either the runtime's stack holds (valid) or it does not (the typed issue); never a throw.
    if (verdict.status === 'invalid')
      assert.deepEqual(
        verdict.issues.map((issue) => issue.keyword),
        ['maxWork'],
      );
  });
});

describe('the estimate never undercounts the validator', () => {
  const cases: [string, Record<string, unknown>, unknown, SchemaDraft][] = [
    ['the doubling tree', doublingTree(), range(3, (i) => i), '2020-12'],
    ['anyOf over strings', { items: { anyOf: range(20, (i) => ({ type: 'string', minLength: i })) } }, ['a', 0, 'abc'], '2020-12'],
    [
      'objects with every object applicator',
      {
        properties: { a: { type: 'integer' }, b: { not: { type: 'string' } } },
        patternProperties: { '^x': { minimum: 1 } },
        additionalProperties: { type: 'boolean' },
        propertyNames: { maxLength: 3 },
        dependentSchemas: { a: { required: ['b'] } },
        if: { required: ['a'] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        then: { properties: { a: { maximum: 5 } } },
        else: { minProperties: 1 },
      },
      { a: 3, b: 1, x1: 0, zz: true, other: 'no' },
      '2020-12',
    ],
    [
      'arrays with every array applicator',
      { prefixItems: [{ type: 'string' }], items: { type: 'integer' }, contains: { minimum: 2 }, unevaluatedItems: false },
      ['a', 1, 2, 3],
      '2020-12',
    ],
    ['draft-07 tuples', { items: [{ type: 'string' }, { type: 'integer' }], additionalItems: { type: 'boolean' } }, ['a', 1, true, 2], '7'],
    [
      '2019-09 $recursiveRef',
      {
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        $recursiveAnchor: true,
        type: ['object', 'integer'],
        additionalProperties: { $recursiveRef: '#' },
      },
      { a: { b: { c: 1 } }, d: 2 },
      '2019-09',
    ],
    ['the large real-world schema', buildLargeSchema(), { resources: [{ name: 'a', region: 'eu-west-1', labels: { x: 'y' } }] }, '7'],
  ];
  for (const dialect of ['2020-12', 'draft-07'] as const) {
    it(`on generated ${dialect} schemas and instances (fast-check)`, () => {
      const pairs = schemaArbitrary(dialect).chain((schema) => fc.tuple(fc.constant(schema), instanceFor(schema)));
      fc.assert(
        fc.property(pairs, ([schema, instance]) => {
          const checked = checkSchema(schema, resolvePolicy(), 'annotate');
          if (checked.status === 'refused') return;
          // Counted on the engine's own normalised copy: the one the validator is given.
          const visits = countVisits(checked.checked.root, instance, dialect === '2020-12' ? '2020-12' : '7');
          const found = estimateWork(checked.checked, instance, 1e12);
          assert.ok(found.work >= visits, `estimate ${found.work} < ${visits} visits`);
        }),
        { numRuns: 300 },
      );
    });
  }

  for (const [label, schema, instance, draft] of cases) {
    it(`on ${label}`, () => {
      const visits = countVisits(schema, instance, draft);
      const found = estimate(schema, instance);
      assert.ok(visits > 0);
      assert.ok(found.work >= visits, `estimate ${found.work} < ${visits} visits`);
    });
  }
});

describe('uniqueItems by hashing', () => {
  const unique = { uniqueItems: true };

  it('finds equal items whatever their key order or number spelling', () => {
    assert.equal(findDuplicates([1, 2, 3]).firstDuplicate, -1);
    assert.equal(
      findDuplicates([
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]).firstDuplicate,
      0,
    );
    assert.equal(findDuplicates([0, -0]).firstDuplicate, 0);
    assert.equal(findDuplicates([1, '1', [1], { 1: 1 }, true, null]).firstDuplicate, -1);
    assert.equal(findDuplicates([{ a: [1, 2] }, { a: [2, 1] }]).firstDuplicate, -1);
    assert.equal(findDuplicates(['x', 'y', 'z', 'y']).firstDuplicate, 1);
  });

  it('treats 1 and 1.0 as equal, and {a,b} and {b,a}', () => {
    assert.equal(issuesOf(unique, lossless('[1, 1.0]'))[0]?.keyword, 'uniqueItems');
    assert.equal(
      issuesOf(unique, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ])[0]?.keyword,
      'uniqueItems',
    );
    assert.deepEqual(accept(unique).validate([{ a: 1 }, { a: 1.5 }]), { status: 'valid' });
  });

  it('tells the validator when every reached array is free of duplicates', () => {
    assert.equal(
      estimate({ items: unique }, [
        [1, 2],
        [3, 4],
      ]).uniqueItemsHold,
      true,
    );
    assert.equal(
      estimate({ items: unique }, [
        [1, 2],
        [3, 3],
      ]).uniqueItemsHold,
      false,
    );
    // An array no uniqueItems reaches does not count.
    assert.equal(estimate({ properties: { a: unique } }, { a: [1, 2], b: [3, 3] }).uniqueItemsHold, true);
  });

  it('admits 40,000 distinct integers, and reports one duplicated at the end', () => {
    const ints = range(40_000, (i) => i);
    assert.deepEqual(estimate(unique, ints).overBudget, false);
    assert.deepEqual(accept(unique).validate(ints), { status: 'valid' });
    assert.deepEqual(
      issuesOf(unique, [...ints, 0]).map((issue) => issue.keyword),
      ['uniqueItems'],
    );
  });

  it('admits 20,000 distinct objects, and reports one duplicated at the end', () => {
    const objects = range(20_000, (i) => ({ id: i, name: `item ${i}` }));
    assert.deepEqual(accept(unique).validate(objects), { status: 'valid' });
    assert.deepEqual(
      issuesOf(unique, [...objects, { name: 'item 0', id: 0 }]).map((issue) => issue.keyword),
      ['uniqueItems'],
    );
  });

  it('charges the pairwise scan up to the first duplicated row', () => {
    const ints = range(40_000, (i) => i);
    // The validator's scan stops at row 0 here, but would compare almost every pair there.
    assert.ok(estimate(unique, [...ints, 0]).work < maxWork);
    assert.deepEqual(issuesOf(unique, [...ints, 39_999]), [overBudget(maxWork)]);
  });
});

describe('unevaluated* placements', () => {
  const message = (pointer: string, keyword: 'unevaluatedProperties' | 'unevaluatedItems') =>
    `${pointer}/${keyword}: the validator would also count ${keyword === 'unevaluatedProperties' ? 'properties' : 'items'} evaluated outside this subschema, so it cannot be enforced faithfully; schemaval refuses it`;

  it('refuses `then` after an `if` that evaluates properties (it would accept {"x":1})', () => {
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
    const refusal = refuse({ if: { properties: { x: true } }, then: { unevaluatedProperties: false } });
    assert.deepEqual(refusal, { code: 'unsupported_keyword', message: message('#/then', 'unevaluatedProperties') });
  });

  for (const [label, schema, pointer, keyword] of [
    [
      'an allOf branch after a $ref that evaluates',
      { $defs: { a: { properties: { x: true } } }, $ref: '#/$defs/a', allOf: [{ unevaluatedProperties: false }] },
      '#/allOf/0',
      'unevaluatedProperties',
    ],
    [
      'a $ref target reached from a dirty branch',
      { $defs: { a: { prefixItems: [true] }, t: { unevaluatedItems: false } }, $ref: '#/$defs/a', anyOf: [{ $ref: '#/$defs/t' }] },
      '#/$defs/t',
      'unevaluatedItems',
    ],
    [
      '`else` after allOf branches that evaluate',
      { allOf: [{ properties: { a: true } }], if: false, else: { unevaluatedProperties: false } },
      '#/else',
      'unevaluatedProperties',
    ],
    [
      'a second dependentSchemas entry',
      { dependentSchemas: { a: { properties: { a: true } }, b: { unevaluatedProperties: false } } },
      '#/dependentSchemas/b',
      'unevaluatedProperties',
    ],
  ] as const) {
    it(`refuses ${label}`, () => {
      assert.deepEqual(refuse(schema), { code: 'unsupported_keyword', message: message(pointer, keyword) });
    });
  }

  for (const [label, schema, good, bad] of [
    ['the root', { properties: { a: true }, unevaluatedProperties: false }, { a: 1 }, { b: 1 }],
    [
      'a value of properties',
      { properties: { o: { properties: { a: true }, unevaluatedProperties: false } } },
      { o: { a: 1 } },
      { o: { b: 1 } },
    ],
    ['an items value', { items: { prefixItems: [true], unevaluatedItems: false } }, [[1]], [[1, 2]]],
    ['inside not', { not: { properties: { a: true }, unevaluatedProperties: false } }, { b: 1 }, { a: 1 }],
    [
      'a $ref target reached from the root',
      { $defs: { t: { properties: { a: true }, unevaluatedProperties: false } }, $ref: '#/$defs/t' },
      { a: 1 },
      { b: 1 },
    ],
    ['an allOf branch of a clean node', { allOf: [{ properties: { a: true }, unevaluatedProperties: false }] }, { a: 1 }, { a: 1, b: 2 }],
    [
      '`then` after an if that evaluates nothing',
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      { if: { required: ['a'] }, then: { properties: { a: true }, unevaluatedProperties: false } },
      { a: 1 },
      { a: 1, b: 2 },
    ],
    [
      'the parent of then/allOf (their annotations count)',
      { allOf: [{ properties: { a: true } }], unevaluatedProperties: false },
      { a: 1 },
      { b: 1 },
    ],
  ] as const) {
    it(`admits and enforces it at ${label}`, () => {
      const compiled = accept(schema);
      assert.deepEqual(compiled.validate(good), { status: 'valid' });
      assert.equal(compiled.validate(bad).status, 'invalid');
    });
  }

  it('admits a placement the validator never reaches', () => {
    accept({
      $defs: { unused: { unevaluatedProperties: false } },
      properties: { a: { properties: { x: true } } },
      allOf: [{ properties: { a: true } }],
    });
  });
});

describe('unevaluatedItems beside contains in 2019-09', () => {
  const draft2019 = 'https://json-schema.org/draft/2019-09/schema';

  it('refuses it: the validator would count items that only contains matched', () => {
    for (const schema of [
      { $schema: draft2019, contains: { type: 'string' }, unevaluatedItems: false },
      { $schema: draft2019, allOf: [{ contains: { type: 'string' } }], unevaluatedItems: false },
    ]) {
      assert.deepEqual(refuse(schema), {
        code: 'unsupported_keyword',
        message:
          '#/unevaluatedItems: the validator would count items matched by "contains", which 2019-09 leaves unevaluated, so it cannot be enforced faithfully; schemaval refuses it',
      });
    }
  });

  it('admits it in 2020-12, where contains does evaluate items', () => {
    const compiled = accept({ contains: { type: 'string' }, unevaluatedItems: false });
    assert.deepEqual(compiled.validate(['a']), { status: 'valid' });
    assert.equal(compiled.validate(['a', 1]).status, 'invalid');
  });
});
