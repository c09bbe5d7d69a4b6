// Property-based tests (fast-check): invariants that must hold for every JSON value, not just the examples.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type CompiledSchema, compileSchema, fingerprint, jsonPath, parseJson } from '../../src/engine/index.ts';
import type { Verdict } from '../../src/protocol/index.ts';
import { accept } from '../fixtures/engine/helpers.ts';

const runs = { numRuns: 200 };
const typeNames = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

/** The JSON Schema type test, written independently of the engine. */
function hasType(value: unknown, type: (typeof typeNames)[number]): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** A deep copy with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reverseKeys((value as Record<string, unknown>)[key])]),
  );
}

/** JSON text with every object's keys sorted: equal exactly when two JSON values are equal. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedJson(record[key])}`)
    .join(',')}}`;
}

/** Checks the shape every verdict must have: valid, or a non-empty list of well-formed issues. */
function assertWellFormed(verdict: Verdict): void {
  if (verdict.status === 'valid') {
    assert.deepEqual(Object.keys(verdict), ['status']);
    return;
  }
  assert.ok(verdict.issues.length > 0);
  assert.ok(verdict.issues.length <= 101);
  for (const issue of verdict.issues) {
    assert.match(issue.path, /^\$/);
    assert.equal(typeof issue.keyword, 'string');
    assert.ok(issue.keyword.length > 0);
    assert.equal(typeof issue.message, 'string');
    assert.ok(issue.message.length > 0);
  }
}

const json = fc.jsonValue({ maxDepth: 4 });
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const huge = 2n ** 53n;

/** An integer past 2^53 in either direction, as exact digits. */
const bigInteger = fc.oneof(fc.bigInt({ min: huge, max: 2n ** 80n }), fc.bigInt({ min: -(2n ** 80n), max: -huge }));

/** Such an integer that no double holds exactly (the common case in JSON text from real systems). */
const inexactBigInteger = bigInteger.filter((value) => BigInt(Number(value)) !== value);

function lossless(text: string): unknown {
  const parsed = parseJson(text, { maxBytes: 1_000_000, maxDepth: 64 });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe('trivial schemas', () => {
  const empty = accept({});
  const yes = accept(true);
  const no = accept(false);

  it('accepts every JSON value with {} and true', () => {
    fc.assert(
      fc.property(json, (value) => {
        assert.deepEqual(empty.validate(value), { status: 'valid' });
        assert.deepEqual(yes.validate(value), { status: 'valid' });
      }),
      runs,
    );
  });

  it('rejects every JSON value with false, with one issue at $', () => {
    fc.assert(
      fc.property(json, (value) => {
        const verdict = no.validate(value);
        assert.equal(verdict.status, 'invalid');
        assert.equal(verdict.status === 'invalid' && verdict.issues.length, 1);
        assert.equal(verdict.status === 'invalid' && verdict.issues[0].path, '$');
      }),
      runs,
    );
  });
});

describe('type', () => {
  const compiled = new Map(typeNames.map((type) => [type, accept({ type })]));

  it('agrees with an independent typeof check for every type name', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(...typeNames), (value, type) => {
        const verdict = (compiled.get(type) as CompiledSchema).validate(value);
        assert.equal(verdict.status === 'valid', hasType(value, type), `${JSON.stringify(value)} as ${type}`);
        if (verdict.status === 'invalid') {
          assert.equal(verdict.issues.length, 1);
          assert.equal(verdict.issues[0].keyword, 'type');
          assert.match(verdict.issues[0].message, new RegExp(`^got [a-z]+, want ${type}$`));
        }
      }),
      runs,
    );
  });

  it('agrees with the reference for a type list: valid if any listed type matches', () => {
    fc.assert(
      fc.property(json, fc.uniqueArray(fc.constantFrom(...typeNames), { minLength: 1, maxLength: 3 }), (value, types) => {
        const verdict = accept({ type: types }).validate(value);
        assert.equal(
          verdict.status === 'valid',
          types.some((type) => hasType(value, type)),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('robustness', () => {
  const schemas = [
    { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, additionalProperties: false },
    {
      type: 'array',
      items: {
        anyOf: [
          { type: 'integer', maximum: 3 },
          { type: 'string', minLength: 2 },
        ],
      },
      uniqueItems: true,
    },
    { oneOf: [{ type: 'object' }, { type: 'array' }, { const: null }] },
    { not: { enum: [1, 'a', null] }, multipleOf: 0.5 },
    { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' },
    { propertyNames: { pattern: '^[a-z]*$' }, patternProperties: { '^x': { type: 'number' } }, minProperties: 1 },
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword.
    { if: { type: 'string' }, then: { format: 'email', maxLength: 5 }, else: { type: 'array', contains: { const: 1 } } },
    { $schema: 'http://json-schema.org/draft-07/schema#', items: [{ type: 'string' }], additionalItems: false, dependencies: { a: ['b'] } },
    { $schema: 'http://json-schema.org/draft-04/schema#', maximum: 3, exclusiveMaximum: true, enum: [1, 2, 3, 'x'] },
  ].map((schema) => accept(schema));
  const formSchemas = [{ type: 'string', format: 'date-time' }, { format: 'email' }, { format: 'uri' }].map((schema) =>
    accept(schema, { formats: 'assert-form' }),
  );

  it('never throws and always returns a well-formed verdict for JSON values', () => {
    fc.assert(
      fc.property(json, (value) => {
        for (const compiled of [...schemas, ...formSchemas]) assertWellFormed(compiled.validate(value));
      }),
      runs,
    );
  });

  it('never throws for arbitrary JavaScript values: bigints, Maps, Dates, boxed values, holes, null prototypes', () => {
    const anything = fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        for (const compiled of schemas) assertWellFormed(compiled.validate(value));
      }),
      runs,
    );
  });

  it('is deterministic: the same value gives the same verdict twice', () => {
    fc.assert(
      fc.property(json, (value) => {
        for (const compiled of schemas) assert.deepEqual(compiled.validate(value), compiled.validate(structuredClone(value)));
      }),
      { numRuns: 100 },
    );
  });

  it('never mutates the instance', () => {
    fc.assert(
      fc.property(json, (value) => {
        const before = JSON.stringify(value);
        for (const compiled of schemas) compiled.validate(value);
        assert.equal(JSON.stringify(value), before);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws when compiling arbitrary JSON as a schema: admitted or refused with a known code', () => {
    fc.assert(
      fc.property(json, (value) => {
        const result = compileSchema(value);
        if (result.status === 'refused') assert.match(result.refusal.code, /^[a-z_]+$/);
        else assertWellFormed(result.schema.validate(value));
      }),
      runs,
    );
  });
});

describe('paths', () => {
  it('names an extra property $.key for identifiers and $["key"] otherwise', () => {
    const compiled = accept({ additionalProperties: false });
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (key) => {
        const verdict = compiled.validate(Object.fromEntries([[key, 1]]));
        assert.equal(verdict.status, 'invalid');
        const expected = identifier.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;
        assert.equal(verdict.status === 'invalid' && verdict.issues[0].path, expected);
        assert.equal(jsonPath([key]), expected);
      }),
      runs,
    );
  });

  it('names an array item by its index', () => {
    const compiled = accept({ items: { type: 'string' } });
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), fc.nat(19), (items, at) => {
        fc.pre(at < items.length);
        const list: unknown[] = [...items];
        list[at] = 0;
        const verdict = compiled.validate(list);
        assert.deepEqual(verdict.status === 'invalid' && verdict.issues.map((issue) => issue.path), [`$[${at}]`]);
      }),
      runs,
    );
  });
});

describe('fingerprints', () => {
  it('are 64 lowercase hex characters and ignore key order', async () => {
    await fc.assert(
      fc.asyncProperty(json, async (value) => {
        const a = await fingerprint(value);
        assert.match(a, /^[0-9a-f]{64}$/);
        assert.equal(await fingerprint(reverseKeys(value)), a);
      }),
      { numRuns: 100 },
    );
  });

  it('differ for values whose sorted-key JSON differs', async () => {
    await fc.assert(
      fc.asyncProperty(json, json, async (a, b) => {
        fc.pre(sortedJson(a) !== sortedJson(b));
        assert.notEqual(await fingerprint(a), await fingerprint(b));
      }),
      { numRuns: 100 },
    );
  });
});

describe('big integers', () => {
  it('compare exactly against maximum', () => {
    fc.assert(
      fc.property(bigInteger, bigInteger, (value, bound) => {
        const verdict = accept(lossless(`{"maximum": ${bound}}`)).validate(lossless(String(value)));
        assert.equal(verdict.status === 'valid', value <= bound, `${value} <= ${bound}`);
      }),
      runs,
    );
  });

  it('compare exactly against exclusiveMinimum', () => {
    fc.assert(
      fc.property(bigInteger, bigInteger, (value, bound) => {
        const verdict = accept(lossless(`{"exclusiveMinimum": ${bound}}`)).validate(value);
        assert.equal(verdict.status === 'valid', value > bound, `${value} > ${bound}`);
      }),
      runs,
    );
  });

  it('match const only with equal digits', () => {
    fc.assert(
      fc.property(bigInteger, fc.integer({ min: -3, max: 3 }), (value, offset) => {
        const other = value + BigInt(offset);
        const verdict = accept(lossless(`{"const": ${value}}`)).validate(lossless(String(other)));
        assert.equal(verdict.status === 'valid', offset === 0);
      }),
      runs,
    );
  });

  it('are exact multiples or not, for any small divisor', () => {
    fc.assert(
      fc.property(inexactBigInteger, fc.integer({ min: 1, max: 1000 }), (value, divisor) => {
        const verdict = accept({ multipleOf: divisor }).validate(lossless(String(value)));
        assert.equal(verdict.status === 'valid', value % BigInt(divisor) === 0n, `${value} % ${divisor}`);
        if (verdict.status === 'invalid') assert.equal(verdict.issues[0].message, `got ${value}, want a multiple of ${divisor}`);
      }),
      runs,
    );
  });

  it('are exact multiples or not, for big integers that doubles hold exactly', () => {
    // value = m × 2^k: every such integer is a double, but its shortest decimal form can end in zeros it does not have.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: 53, max: 70 }), fc.integer({ min: 2, max: 1000 }), (m, k, d) => {
        const value = BigInt(m) * 2n ** BigInt(k);
        const verdict = accept({ multipleOf: d }).validate(lossless(String(value)));
        assert.equal(verdict.status === 'valid', value % BigInt(d) === 0n, `${value} % ${d}`);
      }),
      runs,
    );
  });

  it('print their exact digits in messages', () => {
    fc.assert(
      fc.property(inexactBigInteger, (value) => {
        const nested = accept({ items: { const: 0 } }).validate(lossless(`[${value}]`));
        assert.deepEqual(nested.status === 'invalid' && nested.issues[0], {
          path: '$[0]',
          keyword: 'const',
          message: `got ${value}, want 0`,
        });
        const bounded = accept({ const: 0 }).validate(lossless(String(value)));
        assert.equal(bounded.status === 'invalid' && bounded.issues[0].message, `got ${value}, want 0`);
      }),
      runs,
    );
  });
});
