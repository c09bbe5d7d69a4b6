// Fingerprints (docs/architecture.md#fingerprints-and-caches): lowercase hex SHA-256 of the RFC 8785 canonical JSON of a schema or a tool.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { canonicalJson, createEngine, fingerprint, toolFingerprint } from '../../../src/engine/index.ts';
import { exactKey, exactOfDouble, formatExact, parseExactDecimal, scientificExact } from '../../../src/engine/numbers/exact-decimal.ts';
import { lossless } from '../../fixtures/engine/helpers.ts';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('fingerprint', () => {
  it('is 64 lowercase hex characters', async () => {
    assert.match(await fingerprint({ type: 'object' }), /^[0-9a-f]{64}$/);
  });

  it('is the SHA-256 of the canonical text with sorted keys and no whitespace', async () => {
    assert.equal(await fingerprint({ type: 'object', required: ['b', 'a'] }), sha256('{"required":["b","a"],"type":"object"}'));
  });

  it('matches the RFC 8785 canonical form of numbers, strings and literals', async () => {
    const value = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    const canonical =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    assert.equal(await fingerprint(value), sha256(canonical));
  });

  it('ignores key order', async () => {
    const a = { type: 'object', properties: { x: { type: 'string', minLength: 1 }, y: { type: 'integer' } }, required: ['x'] };
    const b = { required: ['x'], properties: { y: { type: 'integer' }, x: { minLength: 1, type: 'string' } }, type: 'object' };
    assert.equal(await fingerprint(a), await fingerprint(b));
  });

  it('keeps array order significant', async () => {
    assert.notEqual(await fingerprint({ required: ['a', 'b'] }), await fingerprint({ required: ['b', 'a'] }));
  });

  it('changes when a definition changes', async () => {
    const before = { $defs: { id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/id' } } };
    const after = { $defs: { id: { type: 'string' } }, properties: { id: { $ref: '#/$defs/id' } } };
    assert.notEqual(await fingerprint(before), await fingerprint(after));
  });

  it('tells 1 from "1" and true from "true"', async () => {
    assert.notEqual(await fingerprint({ const: 1 }), await fingerprint({ const: '1' }));
    assert.notEqual(await fingerprint({ const: true }), await fingerprint({ const: 'true' }));
  });

  it('distinguishes schemas that differ only in a big integer', async () => {
    const a = await fingerprint(lossless('{"maximum": 9007199254740993}'));
    const b = await fingerprint(lossless('{"maximum": 9007199254740992}'));
    assert.notEqual(a, b);
  });

  it('writes a big integer as its exact digits', async () => {
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740993}')), sha256('{"maximum":9007199254740993}'));
  });

  it('gives a bigint and a LosslessNumber with the same digits the same fingerprint', async () => {
    assert.equal(await fingerprint({ maximum: 9007199254740993n }), await fingerprint(lossless('{"maximum": 9007199254740993}')));
  });

  it('gives a big integer that is exactly a double the fingerprint of that double', async () => {
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740992}')), await fingerprint({ maximum: 9007199254740992 }));
  });

  it('cannot be forged by a string that looks like the internal placeholder', async () => {
    const text = await fingerprint({ maximum: 'svdeadbeefn9007199254740993' });
    assert.notEqual(text, sha256('{"maximum":9007199254740993}'));
  });

  it('is the same for a boolean schema every time and differs between true and false', async () => {
    assert.equal(await fingerprint(true), sha256('true'));
    assert.notEqual(await fingerprint(true), await fingerprint(false));
  });
});

describe('toolFingerprint', () => {
  it('fingerprints { name, inputSchema, outputSchema }', async () => {
    const tool = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['t'] } };
    assert.equal(await toolFingerprint(tool), await fingerprint(tool));
  });

  it('leaves out a schema the tool does not have', async () => {
    assert.equal(
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
      sha256('{"inputSchema":{"type":"object"},"name":"weather"}'),
    );
    assert.equal(
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' }, outputSchema: undefined }),
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
    );
  });

  it('ignores the description and other fields', async () => {
    const base = { name: 'weather', inputSchema: { type: 'object' } };
    assert.equal(
      await toolFingerprint({ ...base, description: 'v1', annotations: { readOnlyHint: true } } as typeof base),
      await toolFingerprint(base),
    );
  });

  it('changes with the name, the input schema or the output schema', async () => {
    const base = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    const prints = new Set([
      await toolFingerprint(base),
      await toolFingerprint({ ...base, name: 'forecast' }),
      await toolFingerprint({ ...base, inputSchema: { type: 'object', required: ['city'] } }),
      await toolFingerprint({ ...base, outputSchema: { type: 'array' } }),
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
    ]);
    assert.equal(prints.size, 5);
  });

  it('tells an input schema from the same output schema', async () => {
    assert.notEqual(
      await toolFingerprint({ name: 't', inputSchema: { type: 'object' } }),
      await toolFingerprint({ name: 't', outputSchema: { type: 'object' } }),
    );
  });
});

describe('fingerprints of numbers past 2^53', () => {
  it('tell apart a decimal past 2^53 from the double it rounds to', async () => {
    const decimal = await fingerprint(lossless('{"maximum": 9007199254740993.5}'));
    const rounded = await fingerprint({ maximum: 9007199254740994 });
    assert.notEqual(decimal, rounded);
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740994}')), rounded);
  });
});

/**
 * The definition as it was first written (a copy with placeholders for exact numbers, the `canonicalize` package,
 * then a hash), kept as the reference the one-pass writer must agree with.
 */
function referenceCanonicalJson(value: unknown): string {
  const nonce = 'f00dfeedbeefcafe0123abcd';
  let placeholders = 0;
  const exact = (digits: string): unknown => {
    const approx = Number(digits);
    const parsed = parseExactDecimal(digits);
    if (parsed === undefined || (Number.isFinite(approx) && exactKey(parsed) === exactKey(exactOfDouble(approx)))) return approx;
    placeholders++;
    // An exact number whose text a double would print (2^53 and up, where a double means its binary value) is
    // written with an exponent, so it never shares a fingerprint with that double.
    const form = formatExact(parsed);
    return `sv${nonce}n${form === String(approx) ? scientificExact(parsed) : form}`;
  };
  const swap = (node: unknown): unknown => {
    if (typeof node === 'bigint') return exact(node.toString());
    if (typeof node !== 'object' || node === null) return node;
    if (isLosslessNumber(node)) return exact((node as { value: string }).value);
    if (Array.isArray(node)) return node.map(swap);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node))
      Object.defineProperty(out, key, { value: swap((node as Record<string, unknown>)[key]), enumerable: true });
    return out;
  };
  const text = canonicalize(swap(value));
  if (text === undefined) throw new TypeError('value has no JSON form');
  return placeholders === 0 ? text : text.replace(new RegExp(`"sv${nonce}n(-?[\\d.]+(?:e-?\\d+)?)"`, 'g'), '$1');
}

const referenceFingerprint = (value: unknown): string => sha256(referenceCanonicalJson(value));

const referenceToolFingerprint = (tool: { name: unknown; inputSchema?: unknown; outputSchema?: unknown }): string => {
  const subject: Record<string, unknown> = { name: tool.name };
  if (tool.inputSchema !== undefined) subject.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) subject.outputSchema = tool.outputSchema;
  return referenceFingerprint(subject);
};

/** Number text a double may or may not hold: big integers, long fractions, exponents, trailing zeros. */
const numberTextArb = fc
  .tuple(
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    fc.option(fc.stringMatching(/^[0-9]{1,25}$/)),
    fc.option(fc.integer({ min: -400, max: 400 })),
  )
  .map(([whole, fraction, exponent]) => `${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`)
  .filter((text) => Number.isFinite(Number(text)));

/** JSON values with every string unit, odd keys, and numbers as doubles, `bigint`s and `LosslessNumber`s. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('\u2028', '\u007f', '\\ud800', '"\\', '\u0000\u001f', '😀', 'é', '\ud800', 'a\udc00'),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    numberTextArb.map((text) => new LosslessNumber(text)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', '10', '2', 'é', 'e')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

const noForm = 'no canonical form';
const outcome = (run: () => string): string => {
  try {
    return run();
  } catch {
    return noForm;
  }
};

const toolArb = fc.record(
  { name: fc.string({ unit: 'binary', maxLength: 8 }), inputSchema: valueArb, outputSchema: valueArb },
  { requiredKeys: ['name'] },
);

describe('fingerprints written in one pass', () => {
  it('equal the reference definition for any JSON value, exact numbers included', async () => {
    await fc.assert(
      fc.asyncProperty(valueArb, async (value) => {
        const expected = outcome(() => referenceCanonicalJson(value));
        assert.equal(
          outcome(() => canonicalJson(value)),
          expected,
        );
        if (expected !== noForm) assert.equal(await fingerprint(value), referenceFingerprint(value));
        else assert.throws(() => fingerprint(value));
      }),
      { numRuns: 400 },
    );
  });

  it('sort keys by UTF-16 code units in short and long key lists alike (fast-check)', () => {
    // Up to 40 keys: lists of up to 24 are sorted in place by insertion, longer ones by the native sort.
    const keyArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 3 }),
      fc.constantFrom('\uffff', '\ud83d\ude00', 'Z', 'a', '', '10', '9'),
    );
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { minLength: 2, maxLength: 40 }), (keys) => {
        const record = Object.fromEntries(keys.map((key, i) => [key, i]));
        assert.equal(
          outcome(() => canonicalJson(record)),
          outcome(() => referenceCanonicalJson(record)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("equal the reference tool fingerprint, assembled from the schemas' canonical texts", async () => {
    await fc.assert(
      fc.asyncProperty(toolArb, async (tool) => {
        assert.equal(
          outcome(() => toolFingerprint(tool)),
          outcome(() => referenceToolFingerprint(tool)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('are what compileTools and compile report, first and from the cache', async () => {
    const schemaArb = fc.dictionary(fc.constantFrom('description', 'title', 'default', 'const', 'examples'), valueArb, { maxKeys: 3 });
    const engine = createEngine();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 8 }),
        schemaArb,
        fc.option(schemaArb, { nil: undefined }),
        async (name, inputSchema, outputSchema) => {
          const tool = outputSchema === undefined ? { name, inputSchema } : { name, inputSchema, outputSchema };
          for (let pass = 0; pass < 2; pass++) {
            const [verdict] = await engine.compileTools([tool]);
            // The engine reports a value with no canonical form with an empty fingerprint.
            const none = (print: string): string => (print === noForm ? '' : print);
            assert.equal(verdict?.fingerprint, none(outcome(() => referenceToolFingerprint(tool))));
            assert.equal((await engine.compile(inputSchema)).fingerprint, none(outcome(() => referenceFingerprint(inputSchema))));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('have no canonical form for a lone surrogate, in a value or a key, however many backslashes precede it', () => {
    for (const value of [{ a: '\ud800' }, ['x\udfff'], { '\udc00': 1 }, '\\\ud83d', { a: '\\\\\udbff!' }]) {
      assert.throws(() => canonicalJson(value), TypeError);
      assert.throws(() => referenceCanonicalJson(value));
    }
    assert.equal(canonicalJson('\\ud800'), '"\\\\ud800"');
    assert.equal(canonicalJson('😀'), '"😀"');
  });
});

describe('values JSON cannot hold', () => {
  const twins: [string, object, object][] = [
    [
      'a function member',
      { type: 'object', properties: { x: { type: 'number', f: () => 1 } } },
      { type: 'object', properties: { x: { type: 'number' } } },
    ],
    [
      'a symbol member',
      { type: 'object', properties: { x: { type: 'number', s: Symbol('s') } } },
      { type: 'object', properties: { x: { type: 'number' } } },
    ],
    [
      'undefined in an array',
      { type: 'object', properties: { x: { enum: [undefined] } } },
      { type: 'object', properties: { x: { enum: [null] } } },
    ],
    [
      'a function in an array',
      { type: 'object', properties: { x: { enum: [() => 1] } } },
      { type: 'object', properties: { x: { enum: [null] } } },
    ],
  ];

  it('have no canonical form, where JSON.stringify would drop them or write null', () => {
    for (const [what, odd, twin] of twins) {
      assert.equal(JSON.stringify(odd), JSON.stringify(twin), `${what}: the same JSON text`);
      assert.throws(() => canonicalJson(odd), TypeError, what);
      assert.throws(() => toolFingerprint({ name: 't', inputSchema: odd }), TypeError, what);
    }
    // An object member that is undefined is left out, as the engine's copy leaves it out.
    assert.equal(canonicalJson({ type: 'string', description: undefined }), '{"type":"string"}');
  });

  it('get the same answer whichever twin an engine compiled first', () => {
    const alone = (schema: object) => ({
      validated: createEngine().validate(schema, { x: null }).status,
      verdict: createEngine().compileTools([{ name: 't', inputSchema: schema }])[0]?.status,
    });
    for (const [what, odd, twin] of twins) {
      assert.deepEqual(alone(odd), { validated: 'refused', verdict: 'refused' }, what);
      assert.equal(alone(twin).verdict, 'accepted', what);
      for (const order of [
        [odd, twin],
        [twin, odd],
      ]) {
        const engine = createEngine();
        const tools = createEngine();
        const answers = order.map((schema) => ({
          validated: engine.validate(schema, { x: null }).status,
          verdict: tools.compileTools([{ name: 't', inputSchema: schema }])[0]?.status,
        }));
        assert.deepEqual(answers, order.map(alone), `${what}, ${order[0] === odd ? 'the odd one' : 'its twin'} first`);
      }
    }
  });
});
