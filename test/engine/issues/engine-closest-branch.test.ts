// The closest branch of a failed anyOf/oneOf (docs/decisions/003-leaf-issues.md, "Update: discriminators"): a
// property whose const/enum picks some branches and rules others out chooses first; the fewest failures decide
// among what it leaves, and alone when nothing discriminates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { issuesOf } from '../../fixtures/engine/helpers.ts';

const none = (count: number, closest: string) => `matches none of the ${count} allowed alternatives (closest, ${closest})`;

/** The union of issue 20: two object branches keyed by `kind`. */
const catOrDog = {
  oneOf: [
    { type: 'object', properties: { kind: { const: 'cat' }, meows: { type: 'integer' } }, required: ['kind', 'meows'] },
    { type: 'object', properties: { kind: { const: 'dog' }, barks: { type: 'integer' } }, required: ['kind', 'barks'] },
  ],
};

/** What pydantic 2 emits for `pet: Cat | Dog = Field(discriminator='pet_type')`. */
const pydantic = {
  $defs: {
    Cat: {
      properties: { pet_type: { const: 'cat', title: 'Pet Type', type: 'string' }, meows: { title: 'Meows', type: 'integer' } },
      required: ['pet_type', 'meows'],
      title: 'Cat',
      type: 'object',
    },
    Dog: {
      properties: { pet_type: { const: 'dog', title: 'Pet Type', type: 'string' }, barks: { title: 'Barks', type: 'number' } },
      required: ['pet_type', 'barks'],
      title: 'Dog',
      type: 'object',
    },
  },
  properties: {
    pet: {
      discriminator: { mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' }, propertyName: 'pet_type' },
      oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }],
      title: 'Pet',
    },
  },
  required: ['pet'],
  title: 'Model',
  type: 'object',
};

const dogZod = z.object({ kind: z.literal('dog'), barks: z.number().int() });
const catZod = z.object({ kind: z.literal('cat'), meows: z.number().int() });

describe('closest branch by discriminator', () => {
  it('picks the branch whose const matches the discriminator, not the one with fewest failures', () => {
    assert.deepEqual(issuesOf(catOrDog, { kind: 'dog', meows: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "barks"') },
    ]);
  });

  it('picks the branch whose enum contains the discriminator value', () => {
    const schema = {
      anyOf: [
        { properties: { kind: { enum: ['cat', 'kitten'] } }, required: ['meows'] },
        { properties: { kind: { enum: ['dog', 'puppy'] } }, required: ['barks', 'wags'] },
      ],
    };
    assert.deepEqual(issuesOf(schema, { kind: 'puppy', meows: 1 }), [
      { path: '$', keyword: 'anyOf', message: none(2, '#2: $: missing required property "barks"; 1 more issue') },
    ]);
  });

  it('reads number and boolean discriminators too', () => {
    const versioned = {
      oneOf: [
        { properties: { v: { const: 1 } }, required: ['a'] },
        { properties: { v: { const: 2 } }, required: ['b', 'c'] },
      ],
    };
    assert.deepEqual(issuesOf(versioned, { v: 2 }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "b"; 1 more issue') },
    ]);
    const result = {
      oneOf: [
        { properties: { ok: { const: true }, data: { type: 'object' } }, required: ['data'] },
        { properties: { ok: { const: false }, error: { type: 'string' } }, required: ['error'] },
      ],
    };
    assert.deepEqual(issuesOf(result, { ok: false, data: {} }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "error"') },
    ]);
  });

  it("picks the branch of zod's discriminatedUnion (const under properties, additionalProperties false)", () => {
    const schema = z.toJSONSchema(z.discriminatedUnion('kind', [catZod, dogZod]));
    assert.deepEqual(issuesOf(schema, { kind: 'dog', meows: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "barks"; 1 more issue') },
    ]);
  });

  it("picks the branch of zod's discriminatedUnion keyed by z.enum, nested in a draft-07 object", () => {
    const pets = z.discriminatedUnion('kind', [
      z.object({ kind: z.enum(['cat', 'kitten']), meows: z.number() }),
      z.object({ kind: z.enum(['dog', 'puppy']), barks: z.number() }),
    ]);
    const schema = z.toJSONSchema(z.object({ pets: z.array(pets) }), { target: 'draft-7' });
    assert.deepEqual(
      issuesOf(schema, {
        pets: [
          { kind: 'kitten', meows: 1 },
          { kind: 'puppy', meows: 1 },
        ],
      }),
      [{ path: '$.pets[1]', keyword: 'oneOf', message: none(2, '#2: $.pets[1]: missing required property "barks"; 1 more issue') }],
    );
  });

  it("picks the branch of pydantic's oneOf of $refs with a discriminator", () => {
    assert.deepEqual(issuesOf(pydantic, { pet: { pet_type: 'dog', meows: 1 } }), [
      { path: '$.pet', keyword: 'oneOf', message: none(2, '#2: $.pet: missing required property "barks"') },
    ]);
  });

  it('follows a $ref from the branch and from the property, and one level of allOf', () => {
    const viaAllOf = {
      anyOf: [
        { allOf: [{ $ref: '#/$defs/base' }, { properties: { kind: { const: 'cat' } }, required: ['meows'] }] },
        { allOf: [{ $ref: '#/$defs/base' }, { properties: { kind: { const: 'dog' } }, required: ['barks'] }] },
      ],
      $defs: { base: { type: 'object', required: ['kind'] } },
    };
    assert.deepEqual(issuesOf(viaAllOf, { kind: 'dog', meows: 1 }), [
      { path: '$', keyword: 'anyOf', message: none(2, '#2: $: missing required property "barks"') },
    ]);
    const viaPropertyRef = {
      definitions: {
        Cat: { type: 'object', properties: { kind: { $ref: '#/definitions/catKind' } }, required: ['kind', 'meows'] },
        Dog: { type: 'object', properties: { kind: { $ref: '#/definitions/dogKind' } }, required: ['kind', 'barks'] },
        catKind: { enum: ['cat'] },
        dogKind: { enum: ['dog'] },
      },
      oneOf: [{ $ref: '#/definitions/Cat' }, { $ref: '#/definitions/Dog' }],
    };
    assert.deepEqual(issuesOf(viaPropertyRef, { kind: 'dog', meows: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "barks"') },
    ]);
  });

  it('takes the OpenAPI discriminator.propertyName as a hint only: the const decides', () => {
    // The hint names a property no branch constrains; `kind` still discriminates.
    const wrongHint = {
      oneOf: [
        { properties: { kind: { const: 'cat' } }, required: ['meows'] },
        { properties: { kind: { const: 'dog' } }, required: ['barks', 'wags'] },
      ],
      discriminator: { propertyName: 'type' },
    };
    assert.deepEqual(issuesOf(wrongHint, { kind: 'dog', type: 'cat' }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#2: $: missing required property "barks"; 1 more issue') },
    ]);
    // The hint names a property without const/enum anywhere: the fewest failures decide.
    const bareHint = {
      oneOf: [
        { properties: { kind: { type: 'string' } }, required: ['meows'] },
        { properties: { kind: { type: 'string' } }, required: ['barks', 'wags'] },
      ],
      discriminator: { propertyName: 'kind' },
    };
    assert.deepEqual(issuesOf(bareHint, { kind: 'dog' }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#1: $: missing required property "meows"') },
    ]);
  });

  it('among several branches the discriminator picks, takes the one with fewest failures', () => {
    const schema = {
      oneOf: [
        { properties: { kind: { const: 'cat' } }, required: ['meows'] },
        { properties: { kind: { enum: ['dog', 'puppy'] } }, required: ['barks', 'wags'] },
        { properties: { kind: { const: 'dog' }, size: { maximum: 3 } }, required: ['barks'] },
      ],
    };
    assert.deepEqual(issuesOf(schema, { kind: 'dog', meows: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(3, '#3: $: missing required property "barks"') },
    ]);
    // A tie among them goes to the first of them.
    assert.deepEqual(issuesOf(schema, { kind: 'dog', meows: 1, size: 9 }), [
      { path: '$', keyword: 'oneOf', message: none(3, '#2: $: missing required property "barks"; 1 more issue') },
    ]);
  });

  it('picks one branch among hundreds keyed by const', () => {
    // Branch #1 fails on its const alone, as #322 fails on its one required name: the tie no longer goes to #1.
    const schema = {
      oneOf: Array.from({ length: 500 }, (_, i) => ({
        type: 'object',
        properties: { kind: { const: `k${i}` } },
        required: ['kind', `n${i}`],
      })),
    };
    assert.deepEqual(issuesOf(schema, { kind: 'k321', n0: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(500, '#322: $: missing required property "n321"') },
    ]);
  });
});

describe('closest branch without a discriminator (the fewest failures, ties to the first)', () => {
  it('keeps the fewest failures when no branch admits the value', () => {
    assert.deepEqual(issuesOf(catOrDog, { kind: 'cow', meows: 1 }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#1: $.kind: got "cow", want "cat"') },
    ]);
  });

  it('keeps the fewest failures when the value lacks the discriminator property', () => {
    assert.deepEqual(issuesOf(catOrDog, { meows: 'x' }), [
      { path: '$', keyword: 'oneOf', message: none(2, '#1: $: missing required property "kind"; 1 more issue') },
    ]);
  });

  it('keeps the fewest failures when no other branch rejects the value', () => {
    const schema = { anyOf: [{ properties: { kind: { const: 'dog' } }, required: ['barks', 'wags'] }, { required: ['meows'] }] };
    assert.deepEqual(issuesOf(schema, { kind: 'dog' }), [
      { path: '$', keyword: 'anyOf', message: none(2, '#2: $: missing required property "meows"') },
    ]);
  });

  it('falls back when the branch the discriminator picks failed on type alone', () => {
    const schema = {
      oneOf: [
        { type: 'array', properties: { kind: { const: 'dog' } } },
        { properties: { kind: { const: 'cat' } }, required: ['meows'] },
        { properties: { kind: { const: 'cow' } }, required: ['moos', 'eats'] },
      ],
    };
    assert.deepEqual(issuesOf(schema, { kind: 'dog' }), [
      { path: '$', keyword: 'oneOf', message: none(3, '#2: $: missing required property "meows"; 1 more issue') },
    ]);
  });

  it('does not read discriminators inside propertyNames, where the subject is the key', () => {
    const schema = { propertyNames: { anyOf: [{ const: 'kind' }, { pattern: '^x', minLength: 3 }] } };
    assert.deepEqual(issuesOf(schema, { kind: 1, y: {} }), [
      {
        path: '$.y',
        keyword: 'anyOf',
        message: 'property name: matches none of the 2 allowed alternatives (closest, #1: $.y: property name: got "y", want "kind")',
      },
    ]);
  });
});
