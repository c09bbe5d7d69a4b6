// Fail closed on every unknown (issue 17, item 3): the engine never answers valid when the validator said
// invalid, a key named like a keyword is a key, a tool list with a malformed or duplicated name refuses those
// tools, and an elicitation answer may only hold what its form asked for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { elicitationMode, splitElicitationAnswer } from '../../../src/engine/forms/check-elicitation-schema.ts';
import { createEngine, jsonPath, toolFingerprint } from '../../../src/engine/index.ts';
import { describeFailures } from '../../../src/engine/issues/describe-failure.ts';
import { keywordSegments } from '../../../src/engine/schema/keyword-segments.ts';
import type { LeafFailure } from '../../../src/engine/schema/schema-validator-adapter.ts';
import { toolListRefusals } from '../../../src/engine/tools/compile-tool.ts';
import type { Issue, ToolVerdict, ValidationOutcome } from '../../../src/protocol/index.ts';
import { compileWithOracle } from '../../helpers/hyperjump-oracle.ts';

const hostileKeys = ['$ref', '$recursiveRef', '$id', 'constructor', '__proto__', 'type', 'enum', 'required'] as const;
const dialects = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
} as const;

/** An object with exactly these own members, `__proto__` included (an object literal would set the prototype). */
const own = (entries: [string, unknown][]): Record<string, unknown> => Object.fromEntries(entries);
const escapeRegExp = (text: string): string => text.replace(/[$^\\.*+?()[\]{}|]/g, '\\$&');

function issuesOf(outcome: ValidationOutcome): readonly Issue[] {
  assert.ok(outcome.status !== 'refused', `refused: ${JSON.stringify(outcome)}`);
  assert.equal(outcome.status, 'invalid', 'expected invalid');
  return outcome.issues;
}

const lines = (issues: readonly Issue[]): string[] => issues.map((issue) => `${issue.path}: ${issue.message}`);

describe('keys named like keywords or prototype members are keys', () => {
  const engine = createEngine();
  for (const [dialect, uri] of Object.entries(dialects)) {
    for (const key of hostileKeys) {
      const at = jsonPath([key]);
      it(`reports ${at}: missing required property "path" under properties (${dialect})`, async () => {
        const schema = own([
          ['$schema', uri],
          ['properties', own([[key, { type: 'object', required: ['path'] }]])],
        ]);
        assert.deepEqual(lines(issuesOf(await engine.validate(schema, own([[key, {}]])))), [`${at}: missing required property "path"`]);
        assert.deepEqual(await engine.validate(schema, own([[key, { path: 1 }]])), { status: 'valid' });
      });

      it(`reports ${at} under patternProperties (${dialect})`, async () => {
        const schema = own([
          ['$schema', uri],
          ['patternProperties', own([[`^${escapeRegExp(key)}$`, { type: 'object', required: ['path'] }]])],
        ]);
        assert.deepEqual(lines(issuesOf(await engine.validate(schema, own([[key, {}]])))), [`${at}: missing required property "path"`]);
      });

      it(`reports $: missing required property "z" for dependentSchemas["${key}"] (${dialect})`, async () => {
        const schema = own([
          ['$schema', uri],
          ['dependentSchemas', own([[key, { required: ['z'] }]])],
        ]);
        assert.deepEqual(lines(issuesOf(await engine.validate(schema, own([[key, 1]])))), ['$: missing required property "z"']);
        assert.deepEqual(
          await engine.validate(
            schema,
            own([
              [key, 1],
              ['z', 2],
            ]),
          ),
          { status: 'valid' },
        );
      });

      it(`reports $[0]${at.slice(1)} with the bound's own value under items (${dialect})`, async () => {
        const schema = own([
          ['$schema', uri],
          ['items', { properties: own([[key, { minimum: 3 }]]) }],
        ]);
        assert.deepEqual(lines(issuesOf(await engine.validate(schema, [own([[key, 1]])]))), [`$[0]${at.slice(1)}: got 1, want at least 3`]);
      });
    }
  }

  it('names a false property "items" as a property, not an item', async () => {
    const issues = issuesOf(
      await engine.validate({ properties: { items: false, additionalProperties: false } }, { items: 1, additionalProperties: 2 }),
    );
    assert.deepEqual(
      issues.map((issue) => [issue.path, issue.keyword, issue.message]),
      [
        ['$.items', 'properties', 'property not allowed'],
        ['$.additionalProperties', 'properties', 'property not allowed'],
      ],
    );
  });

  it('tells a "contains" property from the contains keyword', async () => {
    const schema = {
      properties: { properties: { properties: { contains: { type: 'string' } } } },
      contains: { type: 'integer' },
      minContains: 2,
    };
    const issues = issuesOf(await engine.validate(schema, [1, 'a']));
    assert.deepEqual(lines(issues), ['$: too few items match the "contains" schema, want at least 2']);
  });
});

describe('keywordSegments', () => {
  it('reads each segment by its place: keyword, property name or item index', () => {
    assert.deepEqual(keywordSegments(['properties', '$ref', 'required']), [true, false, true]);
    assert.deepEqual(keywordSegments(['properties', 'properties', 'properties', '$ref']), [true, false, true, false]);
    assert.deepEqual(keywordSegments(['allOf', '0', '$ref', 'items', 'type']), [true, false, true, true, true]);
    assert.deepEqual(keywordSegments(['items', '1', 'dependentSchemas', 'constructor']), [true, false, true, false]);
  });
});

describe('no failure goes undescribed', () => {
  const leaf = (keyword: string, schema: Record<string, unknown> = {}): LeafFailure => ({
    instancePath: ['a'],
    keyword,
    schema,
    schemaPath: ['properties', 'a'],
  });

  it('says which keyword failed when the subschema behind a leaf is unknown, never "want undefined"', () => {
    const issues = describeFailures([leaf('minimum'), leaf('required'), leaf('enum'), leaf('dependentRequired'), leaf('somethingNew')], {
      a: 1,
    });
    assert.deepEqual(lines(issues), [
      '$.a: does not satisfy "minimum"',
      '$.a: does not satisfy "required"',
      '$.a: does not satisfy "enum"',
      '$.a: does not satisfy "dependentRequired"',
      '$.a: does not satisfy "somethingNew"',
    ]);
  });

  it('gives at least one issue per leaf, and none that prints undefined, for any leaf (property)', () => {
    const keywords = [
      'type',
      'required',
      'dependentRequired',
      'dependencies',
      'not',
      'const',
      'enum',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'multipleOf',
      'minLength',
      'pattern',
      'format',
      'minItems',
      'minProperties',
      'minContains',
      'anyOf',
      'oneOf',
      'uniqueItems',
      'contains',
      'other',
    ];
    const leafArb = fc.record({
      instancePath: fc.array(fc.constantFrom('a', '0', '$ref', '__proto__', 'constructor'), { maxLength: 3 }),
      keyword: fc.constantFrom(...keywords),
      schema: fc.dictionary(fc.constantFrom('required', 'minimum', 'enum', 'type', 'not'), fc.constantFrom(1, 'a', ['x'], {}, null)),
      schemaPath: fc.array(fc.constantFrom('properties', 'items', '$ref', 'a', '0'), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(leafArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<unknown>({}, { a: 1 }, [1], 'x'),
        (leaves, instance) => {
          const issues = describeFailures(leaves as LeafFailure[], instance);
          assert.ok(issues.length >= leaves.length);
          for (const issue of issues) assert.doesNotMatch(issue.message, /\bundefined\b/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('invalid means at least one issue (property, against hyperjump)', () => {
  const keyArb = fc.constantFrom(...hostileKeys, 'items', 'properties', 'a');
  const leafArb: fc.Arbitrary<unknown> = fc.oneof(
    fc.constant({ type: 'string' }),
    fc.constant({ minimum: 3 }),
    fc.constant({ enum: [1, 'a'] }),
    fc.constant({ minLength: 2 }),
    fc.constant(false),
    keyArb.map((key) => ({ type: 'object', required: [key] })),
    keyArb.map((key) => ({ required: [key] })),
  );
  const schemaArb = fc.letrec<{ schema: unknown }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafArb,
      fc.array(fc.tuple(keyArb, tie('schema')), { minLength: 1, maxLength: 3 }).map((entries) => ({ properties: own(entries) })),
      fc
        .array(fc.tuple(keyArb, tie('schema')), { minLength: 1, maxLength: 2 })
        .map((entries) => ({ patternProperties: own(entries.map(([key, sub]) => [`^${escapeRegExp(key)}$`, sub])) })),
      fc.array(fc.tuple(keyArb, tie('schema')), { minLength: 1, maxLength: 2 }).map((entries) => ({ dependentSchemas: own(entries) })),
      tie('schema').map((items) => ({ items })),
    ),
  })).schema;
  const instanceArb = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(1, 5, 'a', 'abc', null),
      fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 3 }).map((entries) => own(entries)),
      fc.array(tie('value'), { maxLength: 2 }),
    ),
  })).value;

  it('agrees with hyperjump on every verdict, and an invalid one lists issues', async () => {
    const engine = createEngine();
    await fc.assert(
      fc.asyncProperty(schemaArb, instanceArb, async (schema, instance) => {
        const oracle = await compileWithOracle(schema as never, '2020-12');
        assert.ok(oracle.ok, oracle.ok ? '' : oracle.error);
        const outcome = await engine.validate(schema as object, instance);
        assert.ok(outcome.status !== 'refused', JSON.stringify(outcome));
        assert.equal(outcome.status === 'valid', oracle.validate(instance as never), JSON.stringify(outcome));
        if (outcome.status === 'invalid') {
          assert.ok(outcome.issues.length >= 1);
          for (const issue of outcome.issues) assert.doesNotMatch(issue.message, /\bundefined\b/);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('tool lists: malformed and duplicated names are refused (invalid_tool)', () => {
  const tool = (name: unknown, extra: Record<string, unknown> = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });
  const refusal = (verdict: ToolVerdict | undefined) =>
    verdict?.input?.status === 'refused'
      ? [verdict.name, verdict.status, verdict.fingerprint, verdict.input.refusal.code, verdict.input.refusal.message]
      : verdict;

  it('refuses every definition of a duplicated name, naming the name and the count, and accepts the rest', async () => {
    const verdicts = await createEngine().compileTools([
      tool('search'),
      tool('fetch', { inputSchema: { type: 'object', properties: { url: { type: 'string' } } } }),
      tool('search', { inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }),
      tool('search', { description: 'the last one' }),
    ]);
    const message = 'tool name "search" appears 3 times in this list: every definition of it is refused';
    assert.deepEqual(refusal(verdicts[0]), ['search', 'refused', '', 'invalid_tool', message]);
    assert.deepEqual(refusal(verdicts[2]), ['search', 'refused', '', 'invalid_tool', message]);
    assert.deepEqual(refusal(verdicts[3]), ['search', 'refused', '', 'invalid_tool', message]);
    assert.equal(verdicts[1]?.status, 'accepted');
  });

  it('refuses a duplicate even when one definition was accepted and cached before, and never caches the refusal', async () => {
    const engine = createEngine();
    const [alone] = await engine.compileTools([tool('search')]);
    assert.equal(alone?.status, 'accepted');
    const twice = await engine.compileTools([tool('search'), tool('search')]);
    assert.deepEqual(
      twice.map((verdict) => verdict.status),
      ['refused', 'refused'],
    );
    assert.deepEqual(await engine.compileTools([tool('search')]), [alone]);
  });

  it('refuses a name with a lone surrogate, with no fingerprint; its well-formed twin is accepted with one', async () => {
    const [lone, pair] = await createEngine().compileTools([tool('a\udc00b'), tool('a\ud83d\ude00b')]);
    assert.deepEqual(refusal(lone), [
      'a\udc00b',
      'refused',
      '',
      'invalid_tool',
      'tool name "a\\udc00b" holds a lone UTF-16 surrogate: not well-formed Unicode',
    ]);
    assert.equal(pair?.status, 'accepted');
    assert.equal(pair?.fingerprint, await toolFingerprint(tool('a\ud83d\ude00b')));
  });

  it('refuses an empty name (its fingerprint kept), a name that is not a string, and an entry that is not a tool', async () => {
    const verdicts = await createEngine().compileTools([tool(''), tool(42), tool(null), 'search', null]);
    assert.deepEqual(verdicts.map(refusal), [
      ['', 'refused', await toolFingerprint(tool('')), 'invalid_tool', 'tools[0] has an empty "name"'],
      ['tools[1]', 'refused', '', 'invalid_tool', 'tools[1] is not a tool: want an object with a string "name"'],
      ['tools[2]', 'refused', '', 'invalid_tool', 'tools[2] is not a tool: want an object with a string "name"'],
      ['tools[3]', 'refused', '', 'invalid_tool', 'tools[3] is not a tool: want an object with a string "name"'],
      ['tools[4]', 'refused', '', 'invalid_tool', 'tools[4] is not a tool: want an object with a string "name"'],
    ]);
  });

  it('decides nothing for a well-formed list (toolListRefusals)', () => {
    assert.deepEqual(toolListRefusals([tool('a'), tool('b'), tool('constructor'), tool('__proto__')]), [
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('never gives a lone-surrogate tool a fingerprint: toolFingerprint throws', () => {
    assert.throws(() => toolFingerprint(tool('\ud800')), TypeError);
  });
});

describe('elicitation answers hold only what the form asked for', () => {
  const form = { type: 'object', properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer' } }, required: ['name'] };

  it('reports $.isAdmin: property not asked for by the form', async () => {
    const issues = issuesOf(await createEngine().validateElicitation(form, { name: 'Ada', isAdmin: true }));
    assert.deepEqual(issues, [{ path: '$.isAdmin', keyword: 'properties', message: 'property not asked for by the form' }]);
  });

  it('refuses an unasked key even when the form says additionalProperties: true', async () => {
    const issues = issuesOf(
      await createEngine().validateElicitation({ ...form, additionalProperties: true }, { name: 'Ada', role: 'root' }),
    );
    assert.deepEqual(lines(issues), ['$.role: property not asked for by the form']);
  });

  it('lists unasked keys first, then the form’s own issues', async () => {
    const issues = issuesOf(
      await createEngine().validateElicitation(
        form,
        own([
          ['__proto__', 1],
          ['name', 'A'],
          ['constructor', 2],
        ]),
      ),
    );
    assert.deepEqual(lines(issues), [
      '$.__proto__: property not asked for by the form',
      '$.constructor: property not asked for by the form',
      '$.name: got 1 character, want at least 2',
    ]);
  });

  it('caps the unasked keys at maxIssues with a count of the rest', async () => {
    const answer = own([['name', 'Ada'], ...Array.from({ length: 5 }, (_, i): [string, unknown] => [`x${i}`, i])]);
    const issues = issuesOf(await createEngine({ policy: { maxIssues: 2 } }).validateElicitation(form, answer));
    assert.deepEqual(lines(issues), [
      '$.x0: property not asked for by the form',
      '$.x1: property not asked for by the form',
      '$: 3 more issues not shown',
    ]);
  });

  it('accepts an answer of asked fields only; an undefined member is no member', async () => {
    assert.deepEqual(await createEngine().validateElicitation(form, { name: 'Ada', age: 3, extra: undefined }), { status: 'valid' });
  });

  it('leaves a value that is not a plain object to validation (not laundered into one)', () => {
    const answer = new Map([['name', 'Ada']]);
    assert.deepEqual(splitElicitationAnswer(form, answer), { asked: answer, unasked: [] });
  });
});

describe('elicitation modes', () => {
  it('is a form when the mode is absent or exactly "form", passes "url", and refuses anything else', () => {
    assert.deepEqual(elicitationMode({}), { mode: 'form' });
    assert.deepEqual(elicitationMode({ mode: 'form' }), { mode: 'form' });
    assert.deepEqual(elicitationMode({ mode: 'url' }), { mode: 'url' });
    assert.deepEqual(elicitationMode({ mode: 'FORM' }), {
      mode: 'unknown',
      message: 'unknown elicitation mode "FORM": want "form" (or no mode) or "url"',
    });
    assert.deepEqual(elicitationMode({ mode: null }), {
      mode: 'unknown',
      message: 'unknown elicitation mode null: want "form" (or no mode) or "url"',
    });
    assert.equal(elicitationMode({ mode: 'URL' }).mode, 'unknown');
  });
});
