// The invalid-instance path (issue #9): leaf collection is capped and linear, one issue per missing name, the
// closest alternative of a failed anyOf/oneOf, no bare RangeError, and uniqueItems skipped only when it holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createCfworkerAdapter } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
import { resolvePolicy } from '../../../src/engine/index.ts';
import type {
  AdapterValidateOptions,
  CompiledAdapterSchema,
  LeafFailure,
  SchemaValidatorAdapter,
} from '../../../src/engine/schema/schema-validator-adapter.ts';
import { accept, issuesOf } from '../../fixtures/engine/helpers.ts';
import { hostileInputs } from '../../fixtures/hostile-inputs.ts';

/** The cfworker adapter, wrapped to record what the engine asked for and how many leaves came back. */
function countingAdapter(): {
  adapter: SchemaValidatorAdapter;
  calls: { options?: AdapterValidateOptions; leaves: readonly LeafFailure[] }[];
} {
  const inner = createCfworkerAdapter();
  const calls: { options?: AdapterValidateOptions; leaves: readonly LeafFailure[] }[] = [];
  const adapter: SchemaValidatorAdapter = {
    id: `${inner.id}+counting`,
    compile(input) {
      const result = inner.compile(input);
      if (result.status === 'refused') return result;
      const compiled = result.compiled;
      return {
        status: 'accepted',
        compiled: {
          validate(instance, options) {
            const leaves = compiled.validate(instance, options);
            calls.push({ ...(options === undefined ? {} : { options }), leaves });
            return leaves;
          },
        },
      };
    },
  };
  return { adapter, calls };
}

/** The adapter's compiled schema itself, to call it with options the engine would pass. */
function compiledByAdapter(schema: unknown): CompiledAdapterSchema {
  const inner = createCfworkerAdapter();
  let compiled: CompiledAdapterSchema | undefined;
  const adapter: SchemaValidatorAdapter = {
    id: inner.id,
    compile(input) {
      const result = inner.compile(input);
      if (result.status === 'accepted') compiled = result.compiled;
      return result;
    },
  };
  accept(schema, { adapter });
  if (compiled === undefined) assert.fail('the adapter compiled nothing');
  return compiled;
}

const manyRequired = hostileInputs.find((input) => input.name === '6,000 required fields vs {}');

describe('the issue cap stops collection', () => {
  it('reports exactly maxIssues issues and a summary for 6,000 missing required fields', () => {
    assert.ok(manyRequired);
    const { adapter, calls } = countingAdapter();
    const issues = issuesOf(manyRequired.schema, {}, { adapter, policy: resolvePolicy({ maxIssues: 10 }) });
    assert.equal(issues.length, 11);
    assert.deepEqual(
      issues.slice(0, 10).map((issue) => issue.message),
      Array.from({ length: 10 }, (_, i) => `missing required property "field_${i}"`),
    );
    assert.deepEqual(issues[10], { path: '$', keyword: 'maxIssues', message: 'more issues not shown' });
    // The adapter built no more leaves than it was asked for, plus its "more exist" marker.
    const call = calls.at(-1);
    assert.ok(call?.options?.maxFailures !== undefined);
    assert.ok(call.leaves.length <= call.options.maxFailures + 1, `${call.leaves.length} leaves`);
    assert.equal(call.leaves.at(-1)?.keyword, 'maxIssues');
  });

  it('stops at maxFailures when the adapter is called directly', () => {
    const compiled = compiledByAdapter({ items: { type: 'string' } });
    const leaves = compiled.validate(
      Array.from({ length: 5000 }, (_, i) => i),
      { maxFailures: 7 },
    );
    assert.equal(leaves.length, 8);
    assert.deepEqual(
      leaves.slice(0, 7).map((leaf) => leaf.instancePath.join('/')),
      ['0', '1', '2', '3', '4', '5', '6'],
    );
    assert.equal(leaves[7]?.keyword, 'maxIssues');
  });

  it('adds no marker when every leaf fits', () => {
    const compiled = compiledByAdapter({ items: { type: 'string' } });
    const leaves = compiled.validate([1, 2, 3], { maxFailures: 3 });
    assert.deepEqual(
      leaves.map((leaf) => leaf.keyword),
      ['type', 'type', 'type'],
    );
  });
});

describe('one issue per missing name', () => {
  it('names each missing required property once, in the schema order', () => {
    assert.deepEqual(issuesOf({ required: ['a', 'b', 'c', 'd'] }, { b: 1 }), [
      { path: '$', keyword: 'required', message: 'missing required property "a"' },
      { path: '$', keyword: 'required', message: 'missing required property "c"' },
      { path: '$', keyword: 'required', message: 'missing required property "d"' },
    ]);
  });

  it('gives each leaf its own name, not the whole list', () => {
    const leaves = compiledByAdapter({ required: ['a', 'b', 'c'] }).validate({});
    assert.deepEqual(
      leaves.map((leaf) => leaf.missing),
      [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    );
  });

  it('names the missing properties of required at each location separately', () => {
    const schema = { items: { required: ['id', 'name'] } };
    assert.deepEqual(
      issuesOf(schema, [{ id: 1 }, {}]).map((issue) => `${issue.path} ${issue.message}`),
      ['$[0] missing required property "name"', '$[1] missing required property "id"', '$[1] missing required property "name"'],
    );
  });

  it('words dependentRequired per missing dependant', () => {
    assert.deepEqual(issuesOf({ dependentRequired: { a: ['b', 'c'], x: ['y'] } }, { a: 1, c: 1, x: 1 }), [
      { path: '$', keyword: 'dependentRequired', message: 'property "a" requires property "b"' },
      { path: '$', keyword: 'dependentRequired', message: 'property "x" requires property "y"' },
    ]);
  });

  it('words array-form dependencies beside schema-form ones (draft-07)', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      dependencies: { a: ['b', 'h'], c: { required: ['d'] }, e: ['f', 'g'] },
    };
    assert.deepEqual(
      issuesOf(schema, { a: 1, c: 1, e: 1, g: 1 }).map((issue) => issue.message),
      [
        'property "a" requires property "b"',
        'property "a" requires property "h"',
        'missing required property "d"',
        'property "e" requires property "f"',
      ],
    );
  });
});

describe('the closest alternative', () => {
  const schema = {
    anyOf: [
      { type: 'object', required: ['a', 'b'] },
      { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] },
      { type: 'null' },
    ],
  };

  it('names the alternative with the fewest failures and its first failure', () => {
    assert.deepEqual(issuesOf(schema, { x: 'five' }), [
      {
        path: '$',
        keyword: 'anyOf',
        message: 'matches none of the 3 allowed alternatives (closest, #2: $.x: got string, want integer)',
      },
    ]);
  });

  it('fills LeafFailure.closest with the index and the failures of that alternative', () => {
    const [leaf] = compiledByAdapter(schema).validate({ x: 'five' });
    assert.equal(leaf?.keyword, 'anyOf');
    assert.equal(leaf?.closest?.index, 1);
    assert.deepEqual(
      leaf?.closest?.failures.map((failure) => [failure.keyword, failure.instancePath.join('/')]),
      [['type', 'x']],
    );
  });

  it('never picks an alternative that failed on type alone', () => {
    const nullable = { oneOf: [{ type: 'null' }, { type: 'string', minLength: 5, pattern: '^a' }, { type: 'string', maxLength: 1 }] };
    assert.deepEqual(issuesOf(nullable, 'bcd'), [
      {
        path: '$',
        keyword: 'oneOf',
        message: 'matches none of the 3 allowed alternatives (closest, #3: $: got 3 characters, want at most 1)',
      },
    ]);
  });

  it('counts the rest of the closest alternative failures', () => {
    const two = { anyOf: [{ required: ['a', 'b', 'c'] }, { required: ['d', 'e'] }] };
    assert.deepEqual(issuesOf(two, {}), [
      {
        path: '$',
        keyword: 'anyOf',
        message: 'matches none of the 2 allowed alternatives (closest, #2: $: missing required property "d"; 1 more issue)',
      },
    ]);
  });

  it('still merges type-only alternatives and reports the one meant', () => {
    assert.deepEqual(issuesOf({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 1), [
      { path: '$', keyword: 'type', message: 'got integer, want string or null' },
    ]);
    assert.deepEqual(issuesOf({ anyOf: [{ type: 'null' }, { type: 'string', minLength: 2 }] }, 'x'), [
      { path: '$', keyword: 'minLength', message: 'got 1 character, want at least 2' },
    ]);
  });
});

describe('no bare RangeError', () => {
  const overflowing = { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } };
  // The work budget would refuse such an instance first; raised here to reach the validator.
  const roomy = resolvePolicy({ maxWork: 10_000_000 });

  it('gives a typed verdict for 1,000 wrong conditions', () => {
    const input = hostileInputs.find((candidate) => candidate.name === '1,000 wrong conditions');
    assert.ok(input);
    const verdict = accept(input.schema).validate(input.instance);
    assert.equal(verdict.status, 'invalid');
    assert.equal(verdict.issues[0]?.keyword, 'type');
    assert.equal(verdict.issues.at(-1)?.keyword, 'maxIssues');
  });

  it('falls back to the first failure, marked incomplete, when the full output overflows the stack', () => {
    // 200,000 wrong items: cfworker spreads their 400,000 output units into one push, past any call stack.
    const verdict = accept(overflowing, { policy: roomy }).validate({ a: Array.from({ length: 200_000 }, () => 0) });
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(verdict.issues[0], { path: '$.a[0]', keyword: 'type', message: 'got integer, want string' });
    assert.ok(
      verdict.issues.some((issue) => issue.keyword === 'incomplete' && issue.path === '$'),
      JSON.stringify(verdict.issues),
    );
  });

  it('keeps the verdict exact on the fallback path', () => {
    assert.equal(accept(overflowing, { policy: roomy }).validate({ a: Array.from({ length: 200_000 }, () => 'x') }).status, 'valid');
  });
});

describe('uniqueItems when the engine vouches for unique arrays', () => {
  const schemas: unknown[] = [
    { type: 'array', uniqueItems: true, items: { type: 'integer', maximum: 5 } },
    { type: 'object', properties: { tags: { type: 'array', uniqueItems: true, maxItems: 3 }, n: { type: 'integer' } } },
    { items: { anyOf: [{ type: 'array', uniqueItems: true, minItems: 2 }, { type: 'string' }] } },
    // A property and a constant called "uniqueItems" are data, not the keyword.
    {
      type: 'object',
      properties: { uniqueItems: { const: true }, list: { type: 'array', uniqueItems: true, items: { const: { uniqueItems: true } } } },
      required: ['uniqueItems'],
      additionalProperties: false,
    },
    { $defs: { set: { type: 'array', uniqueItems: true } }, type: 'array', items: { $ref: '#/$defs/set' } },
  ];
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(null, true, false, 0, 1, 5, 6, -1, 2.5, 'x', 'uniqueItems'),
      fc.uniqueArray(tie('value'), { maxLength: 4, selector: (item) => JSON.stringify(item) }),
      fc.dictionary(fc.constantFrom('uniqueItems', 'list', 'tags', 'n'), tie('value'), { maxKeys: 3 }),
    ),
  })).value;

  /** Whether any array in the value holds two equal items (JSON equality; keys compared in any order). */
  function hasDuplicates(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (Array.isArray(value)) {
      const seen = new Set(value.map(canonical));
      if (seen.size < value.length) return true;
    }
    return children.some(hasDuplicates);
  }
  const canonical = (value: unknown): string =>
    typeof value !== 'object' || value === null
      ? JSON.stringify(value)
      : Array.isArray(value)
        ? `[${value.map(canonical).join(',')}]`
        : `{${Object.keys(value)
            .sort()
            .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
            .join(',')}}`;

  it('gives the same verdict with and without the flag on duplicate-free instances', () => {
    for (const schema of schemas) {
      const compiled = compiledByAdapter(schema);
      fc.assert(
        fc.property(json, (instance) => {
          fc.pre(!hasDuplicates(instance));
          const plain = compiled.validate(instance).length === 0;
          const flagged = compiled.validate(instance, { uniqueItemsHold: true }).length === 0;
          assert.equal(flagged, plain, `${JSON.stringify(schema)} vs ${JSON.stringify(instance)}`);
        }),
        { numRuns: 150 },
      );
    }
  });

  it('skips the pairwise check only with the flag', () => {
    const compiled = compiledByAdapter({ type: 'array', uniqueItems: true });
    assert.equal(compiled.validate([1, 1]).length, 1);
    // The flag is the engine's promise that no array has duplicates: the twin without uniqueItems is used.
    assert.equal(compiled.validate([1, 1], { uniqueItemsHold: true }).length, 0);
  });

  it('still finds a duplicate through the engine, which hashes first', () => {
    const input = hostileInputs.find((candidate) => candidate.name === 'uniqueItems on 40,000 integers, duplicate at the end');
    assert.ok(input);
    const verdict = accept(input.schema).validate(input.instance);
    assert.equal(verdict.status, 'invalid');
    assert.equal(accept(input.schema).validate((input.instance as number[]).slice(0, -1)).status, 'valid');
  });

  it('passes the flag from the engine for duplicate-free arrays its estimate hashed', () => {
    const { adapter, calls } = countingAdapter();
    const compiled = accept({ type: 'array', uniqueItems: true }, { adapter });
    // 300 items: past the static ceiling (it charges the pairwise scan), so the estimate hashes them.
    assert.equal(compiled.validate(Array.from({ length: 300 }, (_, i) => i)).status, 'valid');
    assert.equal(calls.at(-1)?.options?.uniqueItemsHold, true);
    // Three items: under the ceiling, nothing is hashed, so the adapter keeps its own pairwise scan.
    assert.equal(compiled.validate([1, 2, 3]).status, 'valid');
    assert.equal(calls.at(-1)?.options?.uniqueItemsHold, false);
    assert.equal(compiled.validate([1, 2, 1]).status, 'invalid');
  });
});
