// The spec's restricted elicitation subset, checked against the MCP schema itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkElicitationSchema, compileSchema, elicitationDefaults } from '../../../src/engine/index.ts';

const spec = JSON.parse(readFileSync(new URL('../../fixtures/mcp-spec/schema-2025-11-25.json', import.meta.url), 'utf8'));
/** The spec's own JSON Schema for `requestedSchema`, compiled by the engine. */
const requestedSchemaSchema = compileSchema({ ...spec, $ref: '#/$defs/ElicitRequestFormParams/properties/requestedSchema' });

const subset = [
  { type: 'object', properties: { name: { type: 'string', minLength: 1, maxLength: 40, title: 'Name' } }, required: ['name'] },
  { type: 'object', properties: { email: { type: 'string', format: 'email' }, when: { type: 'string', format: 'date-time' } } },
  { type: 'object', properties: { age: { type: 'integer', minimum: 0, maximum: 150, default: 30 }, ratio: { type: 'number' } } },
  { type: 'object', properties: { ok: { type: 'boolean', default: false } } },
  { type: 'object', properties: { color: { type: 'string', enum: ['red', 'green'] } } },
  { type: 'object', properties: { color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] } } },
  { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 } } },
  { type: 'object', properties: { tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, default: ['a'] } } },
  { type: 'object', properties: { color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] } } },
  { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} },
];

const outside: [unknown, RegExp][] = [
  [{ type: 'object', properties: { address: { type: 'object', properties: {} } } }, /type must be string, number/],
  [{ type: 'object', properties: { list: { type: 'array', items: { type: 'integer' } } } }, /multi-select/],
  [{ type: 'object', properties: { code: { type: 'string', format: 'int32' } } }, /format must be one of/],
  [{ type: 'object', properties: { code: { type: 'string', pattern: '^a' } } }, /"pattern" is not allowed/],
  [{ type: 'object', properties: { x: { $ref: '#/$defs/x' } } }, /type must be/],
  [{ type: 'object', properties: {}, allOf: [] }, /"allOf" is not allowed/],
  [{ type: 'array', properties: {} }, /"type": "object"/],
  [{ type: 'object' }, /must have "properties"/],
  [{ type: 'object', properties: { n: { type: 'number', default: 'x' } } }, /default must be a number/],
  [{ type: 'object', properties: { c: { type: 'string', enum: [] } } }, /non-empty/],
  [{ type: 'object', properties: { c: { type: 'string', enum: ['a'], enumNames: ['A', 'B'] } } }, /one per enum value/],
  [[], /must be an object/],
];

describe('checkElicitationSchema', () => {
  it('compiles the spec schema it is compared with', () => {
    assert.equal(requestedSchemaSchema.status, 'accepted');
  });

  for (const schema of subset) {
    it(`admits ${JSON.stringify(schema).slice(0, 90)}`, () => {
      assert.deepEqual(checkElicitationSchema(schema), { status: 'accepted' });
      if (requestedSchemaSchema.status === 'accepted')
        assert.deepEqual(requestedSchemaSchema.schema.validate(schema), { status: 'valid' }, 'the spec agrees');
    });
  }

  for (const [schema, reason] of outside) {
    it(`refuses ${JSON.stringify(schema).slice(0, 90)}`, () => {
      const result = checkElicitationSchema(schema);
      assert.equal(result.status, 'refused');
      assert.match(result.status === 'refused' ? result.refusal.message : '', reason);
    });
  }

  it('collects defaults by field name, keeping a field named __proto__ a field', () => {
    const defaults = elicitationDefaults(
      JSON.parse(
        '{"type":"object","properties":{"a":{"type":"integer","default":1},"b":{"type":"string"},"__proto__":{"type":"boolean","default":true}}}',
      ),
    );
    assert.deepEqual(Object.keys(defaults), ['a', '__proto__']);
    assert.equal(Object.getPrototypeOf(defaults), Object.prototype);
    assert.equal(defaults.a, 1);
  });
});
