// Issue #17 item 2: memory is bounded in bytes. The validator keys every subschema by its base URI and full JSON
// pointer, so compiling retains subschemas × pointer length; the policy walk counts it before anything compiles.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { dereference } from '@cfworker/json-schema';
import { buildCorpus, largeToolSchema } from '../../../bench/corpus.ts';
import { fixtures } from '../../../bench/fixtures.ts';
import { createCfworkerAdapter } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
import { compiledWeight } from '../../../src/engine/core/compiled-weight.ts';
import { checkSchema, compileSchema, defaultPolicy, policyHash, resolvePolicy } from '../../../src/engine/index.ts';
import type { SchemaValidatorAdapter } from '../../../src/engine/schema/schema-validator-adapter.ts';
import { hostileInputs, pointerBomb, pointerBombInstance } from '../../fixtures/hostile-inputs.ts';
import { buildLargeSchema } from '../../fixtures/real-world/large-schema.ts';

/** The cfworker adapter, counting the schemas it is asked to compile. */
function countingAdapter(): { adapter: SchemaValidatorAdapter; compiles: () => number } {
  const inner = createCfworkerAdapter();
  let compiles = 0;
  return {
    adapter: {
      id: inner.id,
      compile: (input) => {
        compiles++;
        return inner.compile(input);
      },
    },
    compiles: () => compiles,
  };
}

/** `levels` embedded resources, each inside the last: cfworker walks the innermost 2^levels times. */
function nestedIds(levels: number, relative: boolean): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'integer' };
  for (let level = 0; level < levels; level++) {
    node = { $id: relative ? `l${level}/` : `https://example.com/r${level}`, not: node, properties: { a: { type: 'string' } } };
  }
  return { ...node, $id: 'https://example.com/root/' };
}

const hostile = (name: string) => {
  const found = hostileInputs.find((input) => input.name.startsWith(name));
  if (found === undefined) throw new Error(`no hostile input ${name}`);
  return found;
};

describe('bytes compiling would retain', () => {
  const bombs: [string, unknown][] = [
    ['the 257 KB pointer bomb (30 nested 8,000-character names over 1,000 branches)', hostile('pointer bomb: 30 nested').schema],
    ['the bomb with a distinct name at each level', hostile('pointer bomb: 30 distinct').schema],
    ['a 200,000-character $id over 300 subschemas', hostile('a 200,000-character $id').schema],
    ['20 nested absolute $ids (2^20 walks of the innermost)', nestedIds(20, false)],
    ['16 nested relative $ids (2^16 distinct bases)', nestedIds(16, true)],
  ];
  for (const [label, schema] of bombs) {
    it(`refuses ${label} as too_large before the validator sees it`, () => {
      const { adapter, compiles } = countingAdapter();
      const result = compileSchema(schema, { adapter });
      assert.equal(result.status, 'refused');
      assert.equal(result.status === 'refused' && result.refusal.code, 'too_large');
      assert.match(
        result.status === 'refused' ? result.refusal.message : '',
        /^indexing would build [\d.]+ [MG]B of subschema pointers \(over maxPointerBytes 2 MiB\)$/,
      );
      assert.equal(compiles(), 0);
    });
  }

  it('says how much the bomb would have built', () => {
    const result = compileSchema(hostile('pointer bomb: 30 nested').schema);
    assert.deepEqual(result.status === 'refused' && result.refusal, {
      code: 'too_large',
      message: 'indexing would build 244.1 MB of subschema pointers (over maxPointerBytes 2 MiB)',
    });
  });

  it('admits the schema just under maxPointerBytes, and enforces it', () => {
    const under = hostile('just under maxPointerBytes');
    const result = compileSchema(under.schema);
    assert.ok(result.status === 'accepted', result.status === 'refused' ? result.refusal.message : '');
    assert.deepEqual(result.schema.validate(under.instance), { status: 'valid' });
    const options = { levels: 30, nameLength: 560 };
    let wrong: unknown = { p00003: 5, p00004: -1 };
    for (let level = 0; level < options.levels; level++) wrong = { ['n'.repeat(options.nameLength)]: wrong };
    const verdict = result.schema.validate(wrong);
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(verdict.status === 'invalid' && verdict.issues.map((issue) => issue.keyword), ['minimum']);
    assert.deepEqual(pointerBombInstance(options), under.instance);
  });

  it('names the bounds in force, and a host can raise them', () => {
    const schema = pointerBomb({ levels: 10, nameLength: 2000, leaves: 200 });
    const refused = compileSchema(schema, { policy: resolvePolicy({ maxPointerBytes: 1024 * 1024 }) });
    assert.match(refused.status === 'refused' ? refused.refusal.message : '', /\(over maxPointerBytes 1 MiB\)$/);
    assert.equal(compileSchema(schema).status, 'refused');
    assert.equal(compileSchema(schema, { policy: resolvePolicy({ maxPointerBytes: 8 * 1024 * 1024 }) }).status, 'accepted');
    const small = compileSchema(fixtures[0]?.schema, { policy: resolvePolicy({ maxCompiledBytes: 4096 }) });
    assert.deepEqual(small.status === 'refused' && small.refusal.code, 'too_large');
    assert.match(
      small.status === 'refused' ? small.refusal.message : '',
      /^compiled, this schema would retain [\d.]+ KB \(over maxCompiledBytes 4\.1 KB\)$/,
    );
  });

  it('makes both bounds policy fields: resolved, checked and part of the policy hash', () => {
    assert.equal(defaultPolicy.maxPointerBytes, 2 * 1024 * 1024);
    assert.equal(defaultPolicy.maxCompiledBytes, 16 * 1024 * 1024);
    assert.throws(() => resolvePolicy({ maxPointerBytes: 0 }), /policy\.maxPointerBytes must be a positive integer/);
    assert.notEqual(policyHash(resolvePolicy()), policyHash(resolvePolicy({ maxPointerBytes: 1 << 22 })));
    assert.notEqual(policyHash(resolvePolicy()), policyHash(resolvePolicy({ maxCompiledBytes: 1 << 25 })));
  });

  it('counts at least the pointers cfworker builds, and less than twice them', () => {
    const root = 'https://schemaval.invalid/schema.json';
    const anchored = {
      $id: `https://example.com/${'b'.repeat(500)}`,
      $defs: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}`, { $anchor: `a${i}`, type: 'string' }])),
    };
    const shapes: [string, Record<string, unknown>][] = [
      ['long names over equal-length names', pointerBomb({ levels: 12, nameLength: 300, leaves: 60, bottom: 'properties' })],
      ['names to percent-encode', { properties: { ['a b%"<>[]{}|\\^`'.repeat(20)]: { anyOf: [{ type: 'string' }, { minLength: 2 }] } } }],
      ['é and emoji names', { properties: { ['é/~#'.repeat(50)]: { properties: { ['😀 x'.repeat(40)]: { type: 'string' } } } } }],
      ['nested relative $ids', nestedIds(8, true)],
      ['a long base with anchors', anchored],
      ['the large real-world schema', buildLargeSchema()],
    ];
    for (const [label, schema] of shapes) {
      const checked = checkSchema(schema, resolvePolicy(), 'annotate');
      assert.ok(checked.status === 'accepted', label);
      const copy = structuredClone(schema);
      copy.$id ??= root;
      const built = Object.keys(dereference(copy)).reduce((sum, key) => sum + key.length, 0);
      const counted = checked.checked.index.count.keyBytes;
      assert.ok(counted >= built && counted < 2 * built, `${label}: counted ${counted}, cfworker built ${built}`);
    }
  });

  it('leaves every real-world schema far inside both bounds', () => {
    const schemas: [string, unknown][] = [
      ...buildCorpus().flatMap((tool): [string, unknown][] => [
        [tool.name, tool.inputSchema],
        ...(tool.outputSchema === undefined ? [] : [[`${tool.name} output`, tool.outputSchema] as [string, unknown]]),
      ]),
      ['largeToolSchema(256)', largeToolSchema(256, 1)],
      ...fixtures.map((fixture): [string, unknown] => [fixture.name, fixture.schema]),
      ['the large real-world schema', buildLargeSchema()],
      ...['2025-11-25', '2026-07-28'].map((revision): [string, unknown] => [
        `MCP ${revision}`,
        JSON.parse(readFileSync(new URL(`../../fixtures/mcp-spec/schema-${revision}.json`, import.meta.url), 'utf8')),
      ]),
      ...readdirSync(new URL('../../fixtures/real-world/', import.meta.url))
        .filter((file) => file.endsWith('.json'))
        .map((file): [string, unknown] => {
          const tool = JSON.parse(readFileSync(new URL(`../../fixtures/real-world/${file}`, import.meta.url), 'utf8'));
          return [file, tool.inputSchema];
        }),
    ];
    let pointers = 0;
    let retained = 0;
    for (const [label, schema] of schemas) {
      const checked = checkSchema(schema, resolvePolicy(), 'annotate');
      assert.ok(checked.status === 'accepted', label);
      pointers = Math.max(pointers, checked.checked.index.count.keyBytes);
      retained = Math.max(retained, checked.checked.retained);
    }
    // Measured: 317 KB of pointers and 4.8 MB retained at most, both for the synthetic 256 KiB tool.
    assert.ok(pointers * 6 < defaultPolicy.maxPointerBytes, `largest pointer count ${pointers}`);
    assert.ok(retained * 3 < defaultPolicy.maxCompiledBytes, `largest retained estimate ${retained}`);
  });
});

describe('pointers built on demand', () => {
  it('resolves references by walking the pointer: escapes, percent-encoding, indices, only at subschemas', () => {
    const schema = (ref: string) => ({
      $defs: { list: { items: [{ type: 'string' }, { type: 'integer' }] } },
      properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, é: { type: 'boolean' }, x: { $ref: ref } },
    });
    for (const ref of ['#/properties/a~1b', '#/properties/c~0d', '#/properties/%C3%A9', '#/$defs/list/items/1', '#/$defs/list', '#']) {
      assert.equal(compileSchema(schema(ref)).status, 'accepted', ref);
    }
    for (const ref of [
      '#/properties/a~2b',
      '#/properties/c~d',
      '#/$defs/list/items/01',
      '#/$defs/list/items/2',
      '#/properties',
      '#/$defs',
    ]) {
      const result = compileSchema(schema(ref));
      assert.equal(result.status === 'refused' && result.refusal.code, 'unresolved_ref', ref);
    }
  });

  it('resolves a pointer into an embedded resource under either base', () => {
    const schema = {
      $defs: { inner: { $id: 'https://example.com/inner', properties: { v: { type: 'integer' } } } },
      properties: {
        a: { $ref: 'https://example.com/inner#/properties/v' },
        b: { $ref: '#/$defs/inner/properties/v' },
      },
    };
    const result = compileSchema(schema);
    assert.ok(result.status === 'accepted');
    assert.equal(result.schema.validate({ a: 'x', b: 1 }).status, 'invalid');
    assert.equal(result.schema.validate({ a: 1, b: 2 }).status, 'valid');
  });

  it('still names the location in refusals and warnings', () => {
    const deep = compileSchema({ properties: { 'a/b': { items: [{ $ref: '#/nowhere' }] } } });
    assert.equal(
      deep.status === 'refused' && deep.refusal.message,
      '#/properties/a~1b/items/0/$ref: "#/nowhere" does not resolve to a subschema of this document',
    );
    const warned = compileSchema({ properties: { 'x~': { type: 'array', items: [{ type: 'string' }] } } });
    assert.deepEqual(warned.status === 'accepted' && warned.schema.warnings.map((warning) => warning.message), [
      '#/properties/x~0/items: an array "items" is draft-07 tuple syntax; read as "prefixItems"',
    ]);
  });
});

/** A child with --expose-gc: the shape compiled in distinct copies, validated once, heap measured around it. */
function retainedHeap(shape: string): { retained: number; weight: number } {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/helpers/retained-heap.ts', shape, '4'], {
    cwd: new URL('../../..', import.meta.url),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as { retained: number; weight: number };
}

describe('cache weights', () => {
  it('weighs a refusal and warnings by their messages, which can be as long as a pointer', () => {
    const name = 'n'.repeat(50_000);
    const refused = compileSchema({ properties: { [name]: { $ref: '#/nowhere' } } });
    assert.ok(refused.status === 'refused');
    assert.ok(compiledWeight(refused) > 50_000);
    const warned = compileSchema({ properties: { [name]: { type: 'array', items: [{ type: 'string' }] } } });
    assert.ok(warned.status === 'accepted');
    const plain = compileSchema({ properties: { [name]: { type: 'array', prefixItems: [{ type: 'string' }] } } });
    assert.ok(plain.status === 'accepted');
    assert.ok(compiledWeight(warned) - compiledWeight(plain) > 50_000);
  });

  // With a `$ref` the validator indexes every subschema under its pointer, and the weight follows the heap. Without
  // one no index is built, but the weight still counts its keys: never under the heap, however far over.
  const pointerHeavy = ['under the pointer bound', 'long names over anyOf', 'a 20,000-character $id', 'nested relative $ids'];
  for (const shape of pointerHeavy) {
    it(`weighs ${shape} within 2x of the heap it retains`, () => {
      const { retained, weight } = retainedHeap(shape);
      assert.ok(weight > 200_000, `weight ${weight}`);
      assert.ok(weight / retained > 0.5 && weight / retained < 2, `weight ${weight} for ${retained} retained`);
    });
    it(`weighs ${shape} without a $ref at no less than the heap it retains`, () => {
      const { retained, weight } = retainedHeap(`${shape} without a $ref`);
      assert.ok(weight >= retained, `weight ${weight} for ${retained} retained`);
    });
  }
});
