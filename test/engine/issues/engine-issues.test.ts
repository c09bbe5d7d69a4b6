// Issues (docs/architecture.md#results-and-issues): leaf failures only, deterministic order, JSONPath-like paths, our own wording.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, formatIssue, jsonPath, resolvePolicy } from '../../../src/engine/index.ts';
import type { Issue } from '../../../src/protocol/index.ts';
import { accept, issuesOf } from '../../fixtures/engine/helpers.ts';

const order = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    count: { type: 'integer' },
    n: { type: 'number', maximum: 10 },
    items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    'odd key': { type: 'string' },
  },
  required: ['path'],
  additionalProperties: false,
};
const badOrder = { count: 'three', n: 12, items: [{ name: 'a' }, { name: 'b' }, { name: 3 }], 'odd key': 1, extra: true };

/** Every validator-internal phrase that must never reach a person. */
const internals = [
  /Known schemas/i,
  /github\.com\/cfworker/i,
  /schemaval\.invalid/i,
  /A subschema had errors/i,
  /__absolute/,
  /keywordLocation/,
];

function assertNoInternals(texts: readonly string[]): void {
  for (const text of texts) for (const pattern of internals) assert.doesNotMatch(text, pattern);
}

describe('issue paths', () => {
  it('reports a failure of the root at $', () => {
    assert.equal(issuesOf({ type: 'object' }, 3)[0]?.path, '$');
  });

  it('reports a missing required property at $ and names it', () => {
    assert.deepEqual(issuesOf(order, { count: 1 }), [{ path: '$', keyword: 'required', message: 'missing required property "path"' }]);
  });

  it('reports a wrong property type at $.count', () => {
    assert.deepEqual(issuesOf(order, { path: 'p', count: 'x' }), [
      { path: '$.count', keyword: 'type', message: 'got string, want integer' },
    ]);
  });

  it('reports an array item property at $.items[2].name', () => {
    const issues = issuesOf(order, { path: 'p', items: [{ name: 'a' }, { name: 'b' }, { name: 3 }] });
    assert.deepEqual(issues, [{ path: '$.items[2].name', keyword: 'type', message: 'got integer, want string' }]);
  });

  it('quotes a key that is not an identifier: $["odd key"]', () => {
    assert.equal(issuesOf(order, { path: 'p', 'odd key': 1 })[0]?.path, '$["odd key"]');
  });

  it('quotes empty, dotted, digit-first and quote-holding keys as JSON strings', () => {
    const keys = ['', 'a.b', '0x', 'say "hi"', 'a/b', 'c~d', 'e%20f', 'ünï'];
    const properties = Object.fromEntries(keys.map((key) => [key, { type: 'string' }]));
    const issues = issuesOf({ properties }, Object.fromEntries(keys.map((key) => [key, 1])));
    assert.deepEqual(
      issues.map((issue) => issue.path),
      keys.map((key) => `$[${JSON.stringify(key)}]`),
    );
  });

  it('writes identifier keys with a dot, $ and _ included', () => {
    assert.equal(issuesOf({ properties: { $ok_1: { type: 'string' } } }, { $ok_1: 1 })[0]?.path, '$.$ok_1');
  });

  it('puts array indexes in brackets at every depth', () => {
    const schema = { type: 'array', items: { type: 'array', items: { type: 'integer' } } };
    assert.equal(issuesOf(schema, [[1], [2, 'x']])[0]?.path, '$[1][1]');
  });

  it('writes the same place as an index or a key by what the instance holds there, call after call', () => {
    // One compiled schema, so the same decoded pointer (`#/a/0`) each time: the path is kept only for objects.
    const compiled = accept({ type: 'object', properties: { a: { properties: { '0': { type: 'string' } }, items: { type: 'string' } } } });
    const pathOf = (instance: unknown): string | undefined => {
      const verdict = compiled.validate(instance);
      return verdict.status === 'invalid' ? verdict.issues[0].path : undefined;
    };
    for (let round = 0; round < 3; round++) {
      assert.equal(pathOf({ a: { '0': 1 } }), '$.a["0"]');
      assert.equal(pathOf({ a: [1] }), '$.a[0]');
    }
  });

  it('renders segments with jsonPath the same way', () => {
    assert.equal(jsonPath([]), '$');
    assert.equal(jsonPath(['items', 2, 'name']), '$.items[2].name');
    assert.equal(jsonPath(['odd key']), '$["odd key"]');
    assert.equal(jsonPath(['7']), '$["7"]');
  });

  it('reports a property name failure at the property with a "property name" message', () => {
    assert.deepEqual(issuesOf({ propertyNames: { maxLength: 2 } }, { abc: 1 }), [
      { path: '$.abc', keyword: 'maxLength', message: 'property name: got 3 characters, want at most 2' },
    ]);
  });
});

describe('issue messages', () => {
  for (const [label, schema, instance, message] of [
    ['a type', { type: 'integer' }, 'x', 'got string, want integer'],
    ['a maximum', { maximum: 10 }, 12, 'got 12, want at most 10'],
    ['a minimum', { minimum: 10 }, 2, 'got 2, want at least 10'],
    ['an exclusiveMaximum', { exclusiveMaximum: 3 }, 3, 'got 3, want less than 3'],
    ['an exclusiveMinimum', { exclusiveMinimum: 3 }, 3, 'got 3, want more than 3'],
    ['a multipleOf', { multipleOf: 3 }, 4, 'got 4, want a multiple of 3'],
    ['a minLength', { minLength: 3 }, 'ab', 'got 2 characters, want at least 3'],
    ['a maxLength counting code points', { maxLength: 1 }, '😀😀', 'got 2 characters, want at most 1'],
    ['a pattern', { pattern: '^a' }, 'b', 'does not match the pattern "^a"'],
    ['an enum', { enum: ['a', 'b'] }, 'c', 'got "c", want one of "a", "b"'],
    ['a const', { const: 'a' }, 'b', 'got "b", want "a"'],
    ['a minItems', { minItems: 2 }, [1], 'got 1 item, want at least 2'],
    ['a maxItems', { maxItems: 1 }, [1, 2], 'got 2 items, want at most 1'],
    ['a uniqueItems', { uniqueItems: true }, [1, 1], 'items must be unique'],
    ['a minProperties', { minProperties: 2 }, { a: 1 }, 'got 1 property, want at least 2'],
    ['a maxProperties', { maxProperties: 1 }, { a: 1, b: 2 }, 'got 2 properties, want at most 1'],
    ['a contains', { contains: { type: 'string' } }, [1, 2], 'no item matches the "contains" schema'],
    ['a not', { not: { type: 'string' } }, 'x', 'matches a schema it must not match'],
    ['a false root', false, 1, 'no value is allowed here'],
    ['a oneOf matching twice', { oneOf: [{ type: 'integer' }, { minimum: 0 }] }, 3, 'matches 2 of the alternatives, want exactly one'],
  ] as const) {
    it(`words ${label} failure as "${message}"`, () => {
      const issues = issuesOf(schema, instance);
      assert.equal(issues.length, 1, JSON.stringify(issues));
      assert.equal(issues[0]?.message, message);
    });
  }

  it('says "property not allowed" for additionalProperties: false at the extra property', () => {
    assert.deepEqual(issuesOf({ properties: { a: {} }, additionalProperties: false }, { a: 1, extra: 2 }), [
      { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
  });

  it('says "property not allowed" for a property whose schema is false', () => {
    assert.deepEqual(issuesOf({ properties: { secret: false } }, { secret: 1 }), [
      { path: '$.secret', keyword: 'properties', message: 'property not allowed' },
    ]);
  });

  it('says "item not allowed" for items: false', () => {
    assert.deepEqual(issuesOf({ items: false }, [1]), [{ path: '$[0]', keyword: 'items', message: 'item not allowed' }]);
  });

  it('merges a nullable type list into "want string or null"', () => {
    assert.deepEqual(issuesOf({ type: ['string', 'null'] }, 1), [
      { path: '$', keyword: 'type', message: 'got integer, want string or null' },
    ]);
  });

  it('merges an anyOf of types into one type issue', () => {
    assert.deepEqual(issuesOf({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 1), [
      { path: '$', keyword: 'type', message: 'got integer, want string or null' },
    ]);
  });

  it('merges a oneOf of types into one type issue', () => {
    assert.deepEqual(issuesOf({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, null), [
      { path: '$', keyword: 'type', message: 'got null, want string or integer' },
    ]);
  });

  it('reports the one anyOf branch whose type matched', () => {
    assert.deepEqual(issuesOf({ anyOf: [{ type: 'string', minLength: 3 }, { type: 'null' }] }, 'ab'), [
      { path: '$', keyword: 'minLength', message: 'got 2 characters, want at least 3' },
    ]);
  });

  it('names the anyOf itself when several branches fail for other reasons', () => {
    const schema = {
      anyOf: [
        { type: 'string', minLength: 3 },
        { type: 'string', pattern: '^x' },
      ],
    };
    assert.deepEqual(issuesOf(schema, 'ab'), [
      {
        path: '$',
        keyword: 'anyOf',
        message: 'matches none of the 2 allowed alternatives (closest, #1: $: got 2 characters, want at least 3)',
      },
    ]);
  });

  it('lists at most eight enum values', () => {
    const issue = issuesOf({ enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, 11)[0];
    assert.equal(issue?.message, 'got 11, want one of 1, 2, 3, 4, 5, 6, 7, 8, … (10 in all)');
  });

  it('keeps a long rejected value short in the message', () => {
    const message = issuesOf({ const: 'a' }, 'x'.repeat(5000))[0]?.message ?? '';
    assert.ok(message.length < 200, `${message.length} characters`);
  });

  it('reports one issue per missing required property', () => {
    assert.deepEqual(
      issuesOf({ required: ['a', 'b', 'c'] }, { b: 1 }).map((issue) => issue.message),
      ['missing required property "a"', 'missing required property "c"'],
    );
  });

  it('reports one issue per missing dependentRequired property', () => {
    assert.deepEqual(issuesOf({ dependentRequired: { card: ['billing', 'cvc'] } }, { card: 1 }), [
      { path: '$', keyword: 'dependentRequired', message: 'property "card" requires property "billing"' },
      { path: '$', keyword: 'dependentRequired', message: 'property "card" requires property "cvc"' },
    ]);
  });

  it('formats an issue as one line "path: message"', () => {
    assert.equal(
      formatIssue({ path: '$.count', keyword: 'type', message: 'got string, want integer' }),
      '$.count: got string, want integer',
    );
  });
});

describe('leaf-only, deterministic reporting', () => {
  it('reports every leaf failure of an instance and nothing else', () => {
    assert.deepEqual(issuesOf(order, badOrder), [
      { path: '$', keyword: 'required', message: 'missing required property "path"' },
      { path: '$.count', keyword: 'type', message: 'got string, want integer' },
      { path: '$.n', keyword: 'maximum', message: 'got 12, want at most 10' },
      { path: '$.items[2].name', keyword: 'type', message: 'got integer, want string' },
      { path: '$["odd key"]', keyword: 'type', message: 'got integer, want string' },
      { path: '$.extra', keyword: 'additionalProperties', message: 'property not allowed' },
    ]);
  });

  it('gives the same issues in the same order on every run and every compile', () => {
    const first = accept(order);
    const second = accept(structuredClone(order));
    const runs = [first.validate(badOrder), first.validate(badOrder), second.validate(structuredClone(badOrder))];
    assert.deepEqual(runs[1], runs[0]);
    assert.deepEqual(runs[2], runs[0]);
  });

  it('never reports wrapper keywords ($ref, allOf, properties, items) as issues', () => {
    const schema = {
      $defs: { name: { type: 'string', minLength: 2 } },
      allOf: [{ properties: { list: { items: { $ref: '#/$defs/name' } } } }],
    };
    const issues = issuesOf(schema, { list: ['ok', 'x', 5] });
    assert.deepEqual(issues, [
      { path: '$.list[1]', keyword: 'minLength', message: 'got 1 character, want at least 2' },
      { path: '$.list[2]', keyword: 'type', message: 'got integer, want string' },
    ]);
  });

  it('reports a repeated failure only once', () => {
    const schema = { allOf: [{ required: ['a'] }, { required: ['a'] }] };
    assert.deepEqual(issuesOf(schema, {}), [{ path: '$', keyword: 'required', message: 'missing required property "a"' }]);
  });

  it('reports an unmet minContains without blaming the items that need not match', () => {
    assert.deepEqual(issuesOf({ contains: { type: 'string' }, minContains: 2 }, ['a', 1]), [
      { path: '$', keyword: 'minContains', message: 'too few items match the "contains" schema, want at least 2' },
    ]);
  });

  it('reports a then-branch failure as its leaf', () => {
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword.
    const schema = { if: { properties: { kind: { const: 'card' } } }, then: { required: ['number'] } };
    assert.deepEqual(issuesOf(schema, { kind: 'card' }), [
      { path: '$', keyword: 'required', message: 'missing required property "number"' },
    ]);
  });
});

describe('issue cap', () => {
  it('caps issues at policy.maxIssues and ends with a summary issue', () => {
    const issues = issuesOf({ items: { type: 'string' } }, [1, 2, 3, 4, 5, 6], { policy: resolvePolicy({ maxIssues: 3 }) });
    assert.equal(issues.length, 4);
    assert.deepEqual(
      issues.slice(0, 3).map((issue) => issue.path),
      ['$[0]', '$[1]', '$[2]'],
    );
    // Collection stops just past the cap, so how many more there are is not known.
    assert.deepEqual(issues[3], { path: '$', keyword: 'maxIssues', message: 'more issues not shown' });
  });

  it('says "1 more issue" in the singular', () => {
    const issues = issuesOf({ items: { type: 'string' } }, [1, 2, 3, 4], { policy: resolvePolicy({ maxIssues: 3 }) });
    assert.equal(issues[3]?.message, '1 more issue not shown');
  });

  it('caps at 100 issues by default', () => {
    const issues = issuesOf(
      { items: { type: 'string' } },
      Array.from({ length: 150 }, (_, i) => i),
    );
    assert.equal(issues.length, 101);
    assert.deepEqual(issues[100], { path: '$', keyword: 'maxIssues', message: 'more issues not shown' });
  });

  it('adds no summary when the issues fit', () => {
    const issues = issuesOf({ items: { type: 'string' } }, [1, 2, 3], { policy: resolvePolicy({ maxIssues: 3 }) });
    assert.ok(issues.every((issue) => issue.keyword !== 'maxIssues'));
  });
});

describe('no validator internals in text', () => {
  const cases: [unknown, unknown][] = [
    [order, badOrder],
    [{ $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'string' } }, $ref: '#/$defs/a' }, 1],
    [{ $id: 'https://example.com/root.json', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'integer' } } }, { a: 'x' }],
    [{ anyOf: [{ $ref: '#/$defs/x' }, { $ref: '#/$defs/y' }], $defs: { x: { minLength: 3 }, y: { pattern: '^q' } } }, 'ab'],
    [{ type: 'object', properties: { child: { $ref: '#' }, a: { type: 'string' } } }, { child: { child: { a: 1 } } }],
    [{ not: { $ref: '#/$defs/any' }, $defs: { any: {} } }, null],
    [{ items: { $ref: '#/$defs/x' }, $defs: { x: false } }, [1]],
    [{ format: 'email' }, 'nope'],
  ];

  it('never echoes library wording, base URIs or wrapper messages in issues', () => {
    for (const [schema, instance] of cases) {
      for (const formats of ['annotate', 'assert-form'] as const) {
        const result = compileSchema(schema, { formats });
        assert.ok(result.status === 'accepted', JSON.stringify(schema));
        const verdict = result.schema.validate(instance);
        const issues: readonly Issue[] = verdict.status === 'valid' ? [] : verdict.issues;
        assertNoInternals(issues.flatMap((issue) => [issue.path, issue.keyword, issue.message]));
      }
    }
  });

  it('never echoes library wording or base URIs in refusals', () => {
    const refused: unknown[] = [
      { $ref: '#/$defs/missing' },
      { $ref: 'other.json' },
      { $id: 'https://example.com/a', properties: { a: { $ref: 'b.json' } } },
      { properties: { a: { $ref: 'x.json#/y' } } },
      { allOf: [{ $ref: '#' }] },
      { $dynamicRef: '#x' },
      { pattern: '(' },
    ];
    for (const schema of refused) {
      const result = compileSchema(schema);
      assert.ok(result.status === 'refused', JSON.stringify(schema));
      assertNoInternals([result.refusal.message]);
    }
  });

  it('always names a keyword and a non-empty message', () => {
    for (const [schema, instance] of cases) {
      const verdict = accept(schema).validate(instance);
      if (verdict.status === 'valid') continue;
      for (const issue of verdict.issues) {
        assert.ok(issue.keyword.length > 0);
        assert.ok(issue.message.length > 0);
        assert.notEqual(issue.keyword, 'schema', `a wrapper-less fallback issue: ${JSON.stringify(issue)}`);
      }
    }
  });
});
