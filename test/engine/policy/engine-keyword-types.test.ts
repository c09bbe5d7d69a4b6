// The walk's shortcuts agree with the checks they stand in for: the keyword-type check read by a node's own keys,
// and the expansion check of a schema without references.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileSchema, resolvePolicy } from '../../../src/engine/index.ts';
import { checkKeywordTypes, keywordTypesHold } from '../../../src/engine/policy/check-keywords.ts';
import type { Dialect } from '../../../src/protocol/dialect.ts';

const dialects: readonly Dialect[] = ['2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'];
const checked = [
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
  'required',
  'enum',
  'uniqueItems',
  'pattern',
  'format',
  '$ref',
  '$anchor',
  '$comment',
  '$id',
  'id',
  'dependentRequired',
  '$recursiveAnchor',
  '$recursiveRef',
  'title',
];
const values: unknown[] = [
  'string',
  'strin',
  '#',
  '',
  0,
  3,
  -1,
  1.5,
  true,
  false,
  null,
  [],
  ['string'],
  ['string', 'string'],
  ['integer', 'null'],
  ['a', 1],
  { a: ['b'] },
  { a: 'b' },
  {},
];

describe('keywordTypesHold', () => {
  it('holds exactly when checkKeywordTypes finds nothing wrong (fast-check)', () => {
    const node = fc.dictionary(fc.constantFrom(...checked), fc.constantFrom(...values), { maxKeys: 5 });
    fc.assert(
      fc.property(node, fc.constantFrom(...dialects), (schema, dialect) => {
        assert.equal(keywordTypesHold(schema, Object.keys(schema), dialect), checkKeywordTypes(schema, dialect) === undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the keys it is given: a wrong keyword it is not told of goes unseen', () => {
    assert.equal(keywordTypesHold({ minimum: 'x', type: 'string' }, ['type'], '2020-12'), true);
    assert.equal(keywordTypesHold({ minimum: 'x', type: 'string' }, ['type', 'minimum'], '2020-12'), false);
  });
});

describe('in-place expansion without references', () => {
  /** `allOf` nested `depth` levels, `width` wide at the bottom: every subschema applies to the one value. */
  const nested = (depth: number, width: number): Record<string, unknown> =>
    depth === 0 ? { allOf: Array.from({ length: width }, () => ({ type: 'string' })) } : { allOf: [nested(depth - 1, width)] };

  const policy = resolvePolicy({ maxExpansion: 100 });

  it('is admitted when the whole schema is within maxExpansion', () => {
    assert.equal(compileSchema(nested(3, 50), { policy }).status, 'accepted');
  });

  it('is refused when the in-place subschemas under one value exceed it', () => {
    const result = compileSchema(nested(3, 200), { policy });
    assert.deepEqual(result, {
      status: 'refused',
      refusal: {
        code: 'too_many_subschemas',
        message: '#/allOf/0/allOf/0/allOf/0: expands to more than 100 subschemas applied to one value',
      },
    });
  });
});
