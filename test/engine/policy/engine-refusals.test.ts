// Every refusal code of docs/architecture.md#schema-policy-and-refusal-codes that the engine decides statically (too_slow belongs to the worker).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, resolvePolicy } from '../../../src/engine/index.ts';
import { refusalCodes } from '../../../src/protocol/index.ts';
import { accept, nestedProperties, refuse } from '../../fixtures/engine/helpers.ts';

const draft07 = 'http://json-schema.org/draft-07/schema#';

/** `$defs` d0..dN where each level references the one below twice: 2^N subschemas once expanded. */
function doublingBomb(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: 'string' } };
  for (let i = 1; i <= levels; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { $defs: defs, $ref: `#/$defs/d${levels}` };
}

describe('invalid_schema', () => {
  it('names a wrong type name, alone or in a list, and a list that is empty or repeats', () => {
    for (const [type, message] of [
      ['strin', '#/properties/a/type: "strin" is not a JSON Schema type name'],
      [['string', 'strin'], '#/properties/a/type: "strin" is not a JSON Schema type name'],
      [[], '#/properties/a/type: an empty list allows nothing'],
      [['string', 'string'], '#/properties/a/type: names repeat'],
    ] as const) {
      const refusal = refuse({ properties: { a: { type } } });
      assert.deepEqual({ ...refusal }, { code: 'invalid_schema', message }, JSON.stringify(type));
    }
    accept({ properties: { a: { type: 'string' }, b: { type: ['string', 'null'] } } });
  });

  for (const [label, root, shown] of [
    ['a number', 42, 'number'],
    ['a string', 'object', 'string'],
    ['an array', [{ type: 'string' }], 'array'],
    ['null', null, 'null'],
  ] as const) {
    it(`refuses ${label} as the root and names what it got`, () => {
      const refusal = refuse(root);
      assert.equal(refusal.code, 'invalid_schema');
      assert.match(refusal.message, new RegExp(`got ${shown}$`));
    });
  }

  it('refuses a non-string $schema', () => {
    const refusal = refuse({ $schema: 7, type: 'object' });
    assert.equal(refusal.code, 'invalid_schema');
    assert.match(refusal.message, /\$schema must be a string/);
  });

  it('refuses "required" that is a string rather than an array, naming #/required', () => {
    const refusal = refuse({ type: 'object', required: 'city' });
    assert.equal(refusal.code, 'invalid_schema');
    assert.match(refusal.message, /^#\/required: want an array of strings/);
  });

  it('refuses "required" that lists a non-string, naming the nested location', () => {
    const refusal = refuse({ properties: { address: { type: 'object', required: ['street', 7] } } });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.includes('#/properties/address/required'), refusal.message);
  });

  for (const [keyword, value, location] of [
    ['type', 'text', '#/properties/a/type'],
    ['minLength', '3', '#/properties/a/minLength'],
    ['maximum', '10', '#/properties/a/maximum'],
    ['multipleOf', 0, '#/properties/a/multipleOf'],
    ['enum', 'red', '#/properties/a/enum'],
    ['pattern', 5, '#/properties/a/pattern'],
    ['uniqueItems', 'yes', '#/properties/a/uniqueItems'],
  ] as const) {
    it(`refuses "${keyword}" of the wrong JSON type at ${location}`, () => {
      const refusal = refuse({ type: 'object', properties: { a: { [keyword]: value } } });
      assert.equal(refusal.code, 'invalid_schema');
      assert.ok(refusal.message.startsWith(location), refusal.message);
    });
  }

  it('refuses a subschema keyword whose value is not a schema, naming #/items', () => {
    const refusal = refuse({ type: 'array', items: 5 });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.startsWith('#/items'), `message should start with the location #/items: ${refusal.message}`);
  });

  it('refuses "properties" that is an array', () => {
    const refusal = refuse({ properties: [{ type: 'string' }] });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.includes('#/properties'), refusal.message);
  });

  it('refuses an empty "anyOf"', () => {
    const refusal = refuse({ anyOf: [] });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.includes('#/anyOf'), refusal.message);
  });

  it('refuses a duplicate $id and names the second one', () => {
    const refusal = refuse({
      $defs: { a: { $id: 'https://example.com/shared.json' }, b: { $id: 'https://example.com/shared.json' } },
    });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.includes('#/$defs/b/$id'), refusal.message);
    assert.ok(refusal.message.includes('duplicate'), refusal.message);
  });

  it('refuses a duplicate relative $id without echoing the engine-internal base URI', () => {
    const refusal = refuse({ $defs: { a: { $id: 'item.json' }, b: { $id: 'item.json' } } });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(!refusal.message.includes('schemaval.invalid'), `message leaks the internal base URI: ${refusal.message}`);
  });

  it('refuses a schema holding a value that is not JSON (NaN), naming where', () => {
    const refusal = refuse({ type: 'number', maximum: Number.NaN });
    assert.equal(refusal.code, 'invalid_schema');
    assert.ok(refusal.message.includes('maximum'), refusal.message);
  });

  it('refuses a schema holding a function', () => {
    assert.equal(refuse({ type: 'string', transform: () => 1 }).code, 'invalid_schema');
  });
});

describe('unsupported_dialect', () => {
  it('refuses draft-03', () => {
    const refusal = refuse({ $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' });
    assert.equal(refusal.code, 'unsupported_dialect');
    assert.ok(refusal.message.includes('draft-03'), refusal.message);
  });

  it('refuses an unknown dialect URI', () => {
    const refusal = refuse({ $schema: 'https://example.com/my-dialect', type: 'object' });
    assert.equal(refusal.code, 'unsupported_dialect');
    assert.ok(refusal.message.includes('https://example.com/my-dialect'), refusal.message);
  });

  it('refuses a dialect URI with a different path on json-schema.org', () => {
    assert.equal(refuse({ $schema: 'https://json-schema.org/draft/2021-01/schema' }).code, 'unsupported_dialect');
  });
});

describe('remote_ref', () => {
  it('refuses an http $ref and names #/properties/a/$ref', () => {
    const refusal = refuse({ type: 'object', properties: { a: { $ref: 'http://example.com/address.json' } } });
    assert.equal(refusal.code, 'remote_ref');
    assert.ok(refusal.message.includes('#/properties/a/$ref'), refusal.message);
  });

  it('refuses a relative reference to another document', () => {
    const refusal = refuse({ type: 'object', properties: { a: { $ref: 'other.json#/definitions/x' } } });
    assert.equal(refusal.code, 'remote_ref');
    assert.ok(refusal.message.includes('#/properties/a/$ref'), refusal.message);
  });

  it('refuses a relative reference resolved against an $id on another host', () => {
    const refusal = refuse({ $id: 'https://example.com/root.json', properties: { a: { $ref: 'sibling.json' } } });
    assert.equal(refusal.code, 'remote_ref');
  });

  it('refuses a remote $ref under an unused $defs entry that no instance reaches', () => {
    const refusal = refuse({ type: 'object', $defs: { unused: { $ref: 'https://example.com/never-used.json' } } });
    assert.equal(refusal.code, 'remote_ref');
    assert.ok(refusal.message.includes('#/$defs/unused/$ref'), refusal.message);
  });

  it('refuses a remote $ref inside "not"', () => {
    const refusal = refuse({ not: { $ref: 'https://example.com/forbidden.json' } });
    assert.equal(refusal.code, 'remote_ref');
    assert.ok(refusal.message.includes('#/not/$ref'), refusal.message);
  });

  it('refuses a remote $ref in draft-07 "definitions"', () => {
    const refusal = refuse({ $schema: draft07, definitions: { x: { $ref: 'https://example.com/x.json' } } });
    assert.equal(refusal.code, 'remote_ref');
    assert.ok(refusal.message.includes('#/definitions/x/$ref'), refusal.message);
  });

  it('admits a reference to an embedded $id resource', () => {
    const compiled = accept({
      properties: { a: { $ref: 'https://example.com/int.json' } },
      $defs: { int: { $id: 'https://example.com/int.json', type: 'integer' } },
    });
    assert.equal(compiled.validate({ a: 'x' }).status, 'invalid');
    assert.equal(compiled.validate({ a: 3 }).status, 'valid');
  });
});

describe('unresolved_ref', () => {
  it('refuses a missing $defs target in a branch no instance reaches', () => {
    const refusal = refuse({ type: 'object', $defs: { unused: { $ref: '#/$defs/missing' } } });
    assert.equal(refusal.code, 'unresolved_ref');
    assert.ok(refusal.message.includes('#/$defs/unused/$ref'), refusal.message);
  });

  it('refuses a missing target behind a property', () => {
    const refusal = refuse({ properties: { a: { $ref: '#/$defs/nowhere' } } });
    assert.equal(refusal.code, 'unresolved_ref');
    assert.ok(refusal.message.includes('#/properties/a/$ref'), refusal.message);
  });

  it('refuses an $anchor that does not exist', () => {
    assert.equal(refuse({ properties: { a: { $ref: '#nowhere' } } }).code, 'unresolved_ref');
  });

  it('refuses a pointer into an embedded resource that does not exist', () => {
    const refusal = refuse({ $defs: { a: { $id: 'item.json', type: 'integer' } }, properties: { x: { $ref: 'item.json#/nope' } } });
    assert.equal(refusal.code, 'unresolved_ref');
  });
});

describe('unsupported_keyword', () => {
  it('refuses $dynamicRef in 2020-12 rather than ignore it', () => {
    const refusal = refuse({ $dynamicAnchor: 'node', properties: { next: { $dynamicRef: '#node' } } });
    assert.equal(refusal.code, 'unsupported_keyword');
    assert.ok(refusal.message.includes('#/properties/next/$dynamicRef'), refusal.message);
  });

  it('refuses a $ref that lands on a $dynamicAnchor', () => {
    assert.equal(refuse({ $defs: { a: { $dynamicAnchor: 'x' } }, $ref: '#x' }).code, 'unsupported_keyword');
  });
});

describe('invalid_pattern', () => {
  it('refuses a "pattern" that is not a u-flag RegExp', () => {
    const refusal = refuse({ properties: { a: { type: 'string', pattern: '([a-z]' } } });
    assert.equal(refusal.code, 'invalid_pattern');
    assert.ok(refusal.message.includes('#/properties/a/pattern'), refusal.message);
  });

  it('refuses a "patternProperties" key that is not a RegExp', () => {
    const refusal = refuse({ patternProperties: { '[unclosed': { type: 'string' } } });
    assert.equal(refusal.code, 'invalid_pattern');
    assert.ok(refusal.message.includes('#/patternProperties'), refusal.message);
  });

  it('refuses an escape that only non-unicode RegExps accept', () => {
    // Valid without the u flag, a syntax error with it.
    assert.equal(refuse({ pattern: '\\-' }).code, 'invalid_pattern');
  });

  it('admits a unicode property escape', () => {
    accept({ pattern: '^\\p{L}+$' });
  });
});

describe('too_large', () => {
  it('refuses a 300 KiB schema', () => {
    const refusal = refuse({ type: 'string', description: 'x'.repeat(300 * 1024) });
    assert.equal(refusal.code, 'too_large');
    assert.ok(refusal.message.includes('262144'), refusal.message);
  });

  it('admits a schema just under 256 KiB', () => {
    accept({ type: 'string', description: 'x'.repeat(250 * 1024) });
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    // 100,000 three-byte characters: 100 KB of UTF-16 units, 300 KB of UTF-8.
    assert.equal(refuse({ description: '€'.repeat(100_000) }).code, 'too_large');
  });

  it('honours a smaller maxSchemaBytes from the policy', () => {
    assert.equal(refuse({ description: 'x'.repeat(100) }, { policy: resolvePolicy({ maxSchemaBytes: 50 }) }).code, 'too_large');
  });
});

describe('too_deep', () => {
  it('refuses 5,000-deep nesting without crashing', () => {
    const result = compileSchema(nestedProperties(5000));
    assert.equal(result.status, 'refused');
    assert.equal(result.status === 'refused' && result.refusal.code, 'too_deep');
  });

  it('refuses 100,000-deep nesting as too_deep rather than a stack overflow', () => {
    let schema: unknown = {};
    for (let i = 0; i < 100_000; i++) schema = { not: schema };
    assert.equal(refuse(schema).code, 'too_deep');
  });

  it('refuses JSON nesting over 64 even in a non-schema value like "default"', () => {
    let value: unknown = 1;
    for (let i = 0; i < 70; i++) value = [value];
    const refusal = refuse({ type: 'array', default: value });
    assert.equal(refusal.code, 'too_deep');
    assert.ok(refusal.message.includes('64'), refusal.message);
  });

  it('refuses subschemas nested 33 deep and names the location', () => {
    let schema: unknown = {};
    for (let i = 0; i < 33; i++) schema = { not: schema };
    const refusal = refuse(schema);
    assert.equal(refusal.code, 'too_deep');
    assert.ok(refusal.message.startsWith(`#${'/not'.repeat(33)}`), refusal.message);
    assert.ok(refusal.message.includes('32'), refusal.message);
  });

  it('admits subschemas nested exactly 32 deep', () => {
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 32; i++) schema = { not: schema };
    accept(schema);
  });
});

describe('too_many_subschemas', () => {
  it('refuses the doubling anyOf bomb before expanding it', () => {
    const result = compileSchema(doublingBomb(30));
    assert.equal(result.status, 'refused');
    assert.equal(result.status === 'refused' && result.refusal.code, 'too_many_subschemas');
  });

  it('refuses the doubling bomb even when nothing references its top', () => {
    const bomb = doublingBomb(30);
    delete bomb.$ref;
    assert.equal(refuse(bomb).code, 'too_many_subschemas');
  });

  it('names the $defs entry where the expansion first exceeds the limit', () => {
    const refusal = refuse(doublingBomb(30));
    assert.match(refusal.message, /^#\/\$defs\/d\d+: expands to more than 10000/);
  });

  it('admits a doubling chain that stays under maxExpansion', () => {
    // d11 applies 2^13 - 3 = 8,189 subschemas in place (d12 would apply 16,381): under the 10,000 limit.
    const compiled = accept(doublingBomb(11));
    assert.equal(compiled.validate('text').status, 'valid');
    assert.equal(compiled.validate(5).status, 'invalid');
  });

  it('refuses allOf: [{$ref: "#"}, {$ref: "#"}] as a cycle that never descends', () => {
    const refusal = refuse({ allOf: [{ $ref: '#' }, { $ref: '#' }] });
    assert.equal(refusal.code, 'too_many_subschemas');
    assert.ok(refusal.message.includes('cycle'), refusal.message);
  });

  it('refuses a two-step $defs cycle through allOf', () => {
    const refusal = refuse({
      allOf: [{ $ref: '#/$defs/a' }],
      $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { allOf: [{ $ref: '#/$defs/a' }] } },
    });
    assert.equal(refusal.code, 'too_many_subschemas');
  });

  it('admits recursion that descends into the instance', () => {
    const compiled = accept({ type: 'object', properties: { child: { $ref: '#' } } });
    assert.equal(compiled.validate({ child: { child: {} } }).status, 'valid');
    assert.equal(compiled.validate({ child: { child: 3 } }).status, 'invalid');
  });

  it('refuses more than 10,000 subschemas', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 10_001; i++) properties[`p${i}`] = {};
    const refusal = refuse({ type: 'object', properties });
    assert.equal(refusal.code, 'too_many_subschemas');
    assert.ok(refusal.message.includes('10000'), refusal.message);
  });

  it('admits exactly 10,000 subschemas', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 9_999; i++) properties[`p${i}`] = {};
    accept({ type: 'object', properties });
  });

  it('honours smaller maxSubschemas and maxExpansion from the policy', () => {
    const policyCount = resolvePolicy({ maxSubschemas: 3 });
    assert.equal(refuse({ anyOf: [{}, {}, {}] }, { policy: policyCount }).code, 'too_many_subschemas');
    const policyExpansion = resolvePolicy({ maxExpansion: 3 });
    assert.equal(refuse({ anyOf: [{}, {}, {}] }, { policy: policyExpansion }).code, 'too_many_subschemas');
    accept({ properties: { a: {}, b: {}, c: {} } }, { policy: policyExpansion });
  });
});

describe('refusal codes', () => {
  it('lists too_slow and every code these tests exercise', () => {
    assert.deepEqual([...refusalCodes].sort(), [
      'invalid_pattern',
      'invalid_schema',
      'invalid_tool',
      'remote_ref',
      'too_deep',
      'too_large',
      'too_many_subschemas',
      'too_slow',
      'unresolved_ref',
      'unsupported_dialect',
      'unsupported_keyword',
    ]);
  });

  it('rejects a policy bound that is not a positive integer', () => {
    assert.throws(() => resolvePolicy({ maxSubschemas: 0 }), TypeError);
    assert.throws(() => resolvePolicy({ maxJsonDepth: 1.5 }), TypeError);
  });
});

describe('duplicate plain-name fragments', () => {
  it('refuses two draft-07 "$id": "#name" anchors in one resource', () => {
    const refusal = refuse({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { a: { $id: '#item', type: 'string' }, b: { $id: '#item', type: 'integer' } },
    });
    assert.equal(refusal.code, 'invalid_schema');
    assert.match(refusal.message, /#\/definitions\/b\/\$id: duplicate anchor "#item"/);
  });
});
