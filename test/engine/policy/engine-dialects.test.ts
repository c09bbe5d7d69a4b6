// Dialect rules (docs/architecture.md#schema-policy-and-refusal-codes): which $schema values are accepted and what each dialect means.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveDialect } from '../../../src/engine/index.ts';
import { accept, assertValid, issuesOf, refuse } from '../../fixtures/engine/helpers.ts';

const draft04 = 'http://json-schema.org/draft-04/schema#';
const draft06 = 'http://json-schema.org/draft-06/schema#';
const draft07 = 'http://json-schema.org/draft-07/schema#';
const draft2019 = 'https://json-schema.org/draft/2019-09/schema';

describe('$schema resolution', () => {
  it('reads a schema without $schema as 2020-12', () => {
    assert.equal(accept({ type: 'object' }).dialect, '2020-12');
  });

  it('reads a boolean root as 2020-12', () => {
    assert.equal(accept(true).dialect, '2020-12');
  });

  for (const [uri, dialect] of [
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['https://json-schema.org/draft-07/schema#', 'draft-07'],
    ['https://json-schema.org/draft-07/schema', 'draft-07'],
    ['http://json-schema.org/draft-06/schema#', 'draft-06'],
    ['http://json-schema.org/draft-04/schema#', 'draft-04'],
    ['https://json-schema.org/draft-04/schema', 'draft-04'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['http://json-schema.org/draft/2020-12/schema#', '2020-12'],
  ] as const) {
    it(`accepts ${uri} as ${dialect}`, () => {
      assert.equal(accept({ $schema: uri, type: 'object' }).dialect, dialect);
    });
  }

  it('falls back to a caller-chosen dialect only when $schema is absent', () => {
    assert.deepEqual(resolveDialect({ type: 'object' }, 'draft-07'), { status: 'accepted', dialect: 'draft-07' });
    assert.deepEqual(resolveDialect({ $schema: draft04 }, 'draft-07'), { status: 'accepted', dialect: 'draft-04' });
  });

  it('uses defaultDialect for a schema without $schema', () => {
    const compiled = accept({ items: [{ type: 'string' }], additionalItems: false }, { defaultDialect: 'draft-07' });
    assert.equal(compiled.dialect, 'draft-07');
    assert.equal(compiled.validate(['a', 'b']).status, 'invalid');
  });
});

describe('draft-04', () => {
  it('treats exclusiveMaximum: true as a strict bound', () => {
    const schema = { $schema: draft04, type: 'number', maximum: 10, exclusiveMaximum: true };
    const issues = issuesOf(schema, 10);
    assert.deepEqual(issues, [{ path: '$', keyword: 'maximum', message: 'got 10, want less than 10' }]);
    assertValid(schema, 9.5);
  });

  it('treats exclusiveMinimum: true as a strict bound', () => {
    const schema = { $schema: draft04, minimum: 5, exclusiveMinimum: true };
    assert.deepEqual(issuesOf(schema, 5), [{ path: '$', keyword: 'minimum', message: 'got 5, want more than 5' }]);
    assertValid(schema, 6);
  });

  it('keeps maximum inclusive with exclusiveMaximum: false', () => {
    assertValid({ $schema: draft04, maximum: 10, exclusiveMaximum: false }, 10);
  });

  it('ignores "const" with an ignored_keyword warning', () => {
    const compiled = accept({ $schema: draft04, const: 5 });
    assert.equal(compiled.validate(6).status, 'valid');
    assert.deepEqual(
      compiled.warnings.map((w) => w.code),
      ['ignored_keyword'],
    );
    assert.ok(compiled.warnings[0]?.message.includes('"const"'));
  });

  it('ignores "if"/"then" with a warning', () => {
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword.
    const compiled = accept({ $schema: draft04, if: { type: 'string' }, then: { minLength: 3 } });
    assert.equal(compiled.validate('a').status, 'valid');
    assert.ok(compiled.warnings.some((w) => w.code === 'ignored_keyword'));
  });

  it('resolves $ref against a draft-04 "id"', () => {
    const schema = {
      $schema: draft04,
      id: 'http://example.com/root.json',
      definitions: { count: { type: 'integer' } },
      properties: { n: { $ref: '#/definitions/count' } },
    };
    assert.deepEqual(issuesOf(schema, { n: 'x' }), [{ path: '$.n', keyword: 'type', message: 'got string, want integer' }]);
  });
});

describe('draft-07', () => {
  const refWithSibling = {
    $schema: draft07,
    definitions: { count: { type: 'integer' } },
    properties: { n: { $ref: '#/definitions/count', maximum: 3 } },
  };

  it('ignores a "maximum" beside "$ref"', () => {
    assertValid(refWithSibling, { n: 100 });
  });

  it('still applies the "$ref" target beside an ignored sibling', () => {
    assert.deepEqual(issuesOf(refWithSibling, { n: 'x' }), [{ path: '$.n', keyword: 'type', message: 'got string, want integer' }]);
  });

  it('warns ref_siblings_ignored and names the location and the keyword', () => {
    const { warnings } = accept(refWithSibling);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.code, 'ref_siblings_ignored');
    assert.ok(warnings[0]?.message.includes('#/properties/n'));
    assert.ok(warnings[0]?.message.includes('maximum'));
  });

  it('does not warn about annotations beside "$ref"', () => {
    const { warnings } = accept({
      $schema: draft07,
      definitions: { count: { type: 'integer' } },
      properties: { n: { $ref: '#/definitions/count', description: 'how many', title: 'Count', default: 1 } },
    });
    assert.deepEqual(warnings, []);
  });

  it('applies a "maximum" beside "$ref" in 2020-12', () => {
    const schema = { $defs: { count: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/count', maximum: 3 } } };
    assert.deepEqual(issuesOf(schema, { n: 100 }), [{ path: '$.n', keyword: 'maximum', message: 'got 100, want at most 3' }]);
    assert.deepEqual(accept(schema).warnings, []);
  });

  const tuple = { $schema: draft07, type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false };

  it('validates tuple "items" position by position', () => {
    assertValid(tuple, ['a', 1]);
    assert.deepEqual(issuesOf(tuple, [1, 'a']), [
      { path: '$[0]', keyword: 'type', message: 'got integer, want string' },
      { path: '$[1]', keyword: 'type', message: 'got string, want integer' },
    ]);
  });

  it('rejects an extra tuple item with additionalItems: false', () => {
    assert.deepEqual(issuesOf(tuple, ['a', 1, 2]), [{ path: '$[2]', keyword: 'additionalItems', message: 'item not allowed' }]);
  });

  it('applies an additionalItems schema to the items past the tuple', () => {
    const schema = { $schema: draft07, items: [{ type: 'string' }], additionalItems: { type: 'boolean' } };
    assertValid(schema, ['a', true, false]);
    assert.deepEqual(issuesOf(schema, ['a', true, 3]), [{ path: '$[2]', keyword: 'type', message: 'got integer, want boolean' }]);
  });

  it('applies "const", "contains" and if/then', () => {
    assert.equal(issuesOf({ $schema: draft07, const: 5 }, 6)[0]?.keyword, 'const');
    assert.equal(issuesOf({ $schema: draft07, contains: { type: 'string' } }, [1])[0]?.keyword, 'contains');
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword.
    const conditional = { $schema: draft07, if: { type: 'string' }, then: { minLength: 3 } };
    assert.equal(issuesOf(conditional, 'ab')[0]?.keyword, 'minLength');
  });

  it('ignores 2019+ "dependentRequired" with an ignored_keyword warning', () => {
    const compiled = accept({ $schema: draft07, dependentRequired: { a: ['b'] } });
    assert.equal(compiled.validate({ a: 1 }).status, 'valid');
    assert.equal(compiled.warnings[0]?.code, 'ignored_keyword');
  });

  it('ignores "prefixItems" in draft-07', () => {
    const compiled = accept({ $schema: draft07, prefixItems: [{ type: 'string' }] });
    assert.equal(compiled.validate([1]).status, 'valid');
    assert.equal(compiled.warnings[0]?.code, 'ignored_keyword');
  });

  it('reports array-form "dependencies" as a missing property, not an unexplained failure', () => {
    assert.deepEqual(issuesOf({ $schema: draft07, dependencies: { card: ['billing'] } }, { card: 1 }), [
      { path: '$', keyword: 'dependencies', message: 'property "card" requires property "billing"' },
    ]);
  });

  it('resolves "#/$defs/…" pointers that generators put in draft-07 schemas', () => {
    const schema = { $schema: draft07, $defs: { count: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/count' } } };
    assert.deepEqual(issuesOf(schema, { n: 'x' }), [{ path: '$.n', keyword: 'type', message: 'got string, want integer' }]);
  });

  it('applies schema-form "dependencies"', () => {
    assert.deepEqual(issuesOf({ $schema: draft07, dependencies: { card: { required: ['billing'] } } }, { card: 1 }), [
      { path: '$', keyword: 'required', message: 'missing required property "billing"' },
    ]);
  });
});

describe('draft-06', () => {
  it('is handled with draft-07 rules: "contains" applies', () => {
    const compiled = accept({ $schema: draft06, contains: { type: 'string' } });
    assert.equal(compiled.dialect, 'draft-06');
    assert.equal(compiled.validate([1, 2]).status, 'invalid');
    assert.equal(compiled.validate([1, 'a']).status, 'valid');
  });

  it('ignores siblings of "$ref" like draft-07, with a warning', () => {
    const compiled = accept({
      $schema: draft06,
      definitions: { count: { type: 'integer' } },
      properties: { n: { $ref: '#/definitions/count', maximum: 3 } },
    });
    assert.equal(compiled.validate({ n: 100 }).status, 'valid');
    assert.equal(compiled.warnings[0]?.code, 'ref_siblings_ignored');
  });
});

describe('2019-09', () => {
  it('applies "dependentRequired"', () => {
    assert.deepEqual(issuesOf({ $schema: draft2019, dependentRequired: { card: ['billing'] } }, { card: 1 }), [
      { path: '$', keyword: 'dependentRequired', message: 'property "card" requires property "billing"' },
    ]);
  });

  it('follows $recursiveRef to the $recursiveAnchor root', () => {
    const schema = { $schema: draft2019, $recursiveAnchor: true, type: 'object', properties: { child: { $recursiveRef: '#' } } };
    assertValid(schema, { child: { child: {} } });
    assert.deepEqual(issuesOf(schema, { child: { child: 1 } }), [
      { path: '$.child.child', keyword: 'type', message: 'got integer, want object' },
    ]);
  });

  it('ignores "prefixItems", which 2019-09 does not define', () => {
    const compiled = accept({ $schema: draft2019, prefixItems: [{ type: 'string' }] });
    assert.equal(compiled.validate([1]).status, 'valid');
    assert.equal(compiled.warnings[0]?.code, 'ignored_keyword');
  });
});

describe('2020-12', () => {
  it('validates "prefixItems" and "items": false', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false };
    assertValid(schema, ['a', 1]);
    assert.deepEqual(issuesOf(schema, ['a', 'b']), [{ path: '$[1]', keyword: 'type', message: 'got string, want integer' }]);
    assert.deepEqual(issuesOf(schema, ['a', 1, 2]), [{ path: '$[2]', keyword: 'items', message: 'item not allowed' }]);
  });

  it('reads an array "items" as prefixItems with a legacy_tuple_items warning', () => {
    const compiled = accept({ items: [{ type: 'string' }] });
    assert.equal(compiled.validate([1]).status, 'invalid');
    assert.equal(compiled.validate(['a', 1]).status, 'valid');
    assert.equal(compiled.warnings[0]?.code, 'legacy_tuple_items');
  });

  it('still honours schema-form draft-07 "dependencies", as its author meant', () => {
    assert.deepEqual(issuesOf({ dependencies: { card: { required: ['billing'] } } }, { card: 1 }), [
      { path: '$', keyword: 'required', message: 'missing required property "billing"' },
    ]);
  });

  it('resolves $anchor references', () => {
    const schema = { $defs: { positive: { $anchor: 'positive', minimum: 0 } }, properties: { x: { $ref: '#positive' } } };
    assert.deepEqual(issuesOf(schema, { x: -1 }), [{ path: '$.x', keyword: 'minimum', message: 'got -1, want at least 0' }]);
  });

  it('refuses boolean exclusiveMaximum, which only draft-04 defines', () => {
    const refusal = refuse({ maximum: 3, exclusiveMaximum: true });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.startsWith('#/exclusiveMaximum'), refusal.message);
  });
});

describe('draft-03 leftovers', () => {
  it('admits "required": true inside a property with a draft3_required warning', () => {
    const compiled = accept({ type: 'object', properties: { city: { type: 'string', required: true } } });
    assert.ok(compiled.warnings.some((w) => w.code === 'draft3_required'));
    assert.ok(compiled.warnings.some((w) => w.message.includes('#/properties/city')));
  });

  it('admits "required": false inside a property with a draft3_required warning', () => {
    const compiled = accept({ type: 'object', properties: { city: { required: false } } });
    assert.equal(compiled.warnings[0]?.code, 'draft3_required');
    assert.equal(compiled.validate({}).status, 'valid');
  });

  it('admits "required": true in draft-07 with a draft3_required warning', () => {
    const compiled = accept({ $schema: draft07, type: 'object', properties: { city: { type: 'string', required: true } } });
    assert.ok(compiled.warnings.some((w) => w.code === 'draft3_required'));
    assert.equal(compiled.validate({ city: 3 }).status, 'invalid');
  });
});

describe('warnings', () => {
  it('reports each distinct warning once', () => {
    const compiled = accept({ $schema: draft04, const: 1, properties: { a: { const: 2 }, b: { const: 3 } } });
    const messages = compiled.warnings.map((w) => w.message);
    assert.equal(new Set(messages).size, messages.length);
    assert.equal(messages.length, 3);
  });

  it('caps the warning list at 20', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) properties[`p${i}`] = { const: i };
    assert.equal(accept({ $schema: draft04, properties }).warnings.length, 20);
  });
});

describe('draft-07 dependencies keyed by names the validator takes for keywords', () => {
  // The validator's indexer skips keys like "required" or "constructor" under `dependencies`; the engine resolves
  // the `$ref`s below them itself (found by the differential test against @hyperjump/json-schema).
  for (const key of ['constructor', 'required', 'toString', 'type']) {
    it(`resolves a $ref under dependencies.${key}`, () => {
      const schema = { $schema: draft07, dependencies: { [key]: { $ref: '#/definitions/d' } }, definitions: { d: { required: ['x'] } } };
      assert.deepEqual(
        issuesOf(schema, { [key]: 1 }).map((issue) => `${issue.path}: ${issue.message}`),
        ['$: missing required property "x"'],
      );
      assertValid(schema, { [key]: 1, x: 2 });
      assertValid(schema, {});
    });
  }
});
