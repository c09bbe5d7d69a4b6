// Caches (docs/architecture.md#fingerprints-and-caches): compiled schemas and refusals by fingerprint + adapter + policy, LRU-bounded.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildCorpus, largeToolSchema } from '../../../bench/corpus.ts';
import { fixtures } from '../../../bench/fixtures.ts';
import { compiledWeight } from '../../../src/engine/core/compiled-weight.ts';
import { createEngine, createLruCache, fingerprint, policyHash, resolvePolicy } from '../../../src/engine/index.ts';

const remote = { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } };

function throwsWithCode(run: () => unknown, code: string): void {
  assert.throws(run, (error: unknown) => (error as { code?: unknown }).code === code);
}

describe('createEngine cache', () => {
  it('compiles a schema once and counts a cache hit on repeat', async () => {
    const engine = createEngine();
    const first = await engine.compile({ type: 'string' });
    const second = await engine.compile({ type: 'string' });
    assert.equal(first.fingerprint, second.fingerprint);
    assert.equal(engine.stats().compiles, 1);
    assert.equal(engine.stats().cacheHits, 1);
    assert.equal(engine.stats().cachedSchemas, 1);
  });

  it('returns the fingerprint of the schema', async () => {
    const engine = createEngine();
    assert.equal((await engine.compile({ type: 'string' })).fingerprint, await fingerprint({ type: 'string' }));
  });

  it('finds a schema with reordered keys in the cache', async () => {
    const engine = createEngine();
    await engine.compile({ type: 'string', minLength: 1 });
    await engine.compile({ minLength: 1, type: 'string' });
    assert.equal(engine.stats().compiles, 1);
  });

  it('caches refusals too: a refused schema is not recompiled', async () => {
    const engine = createEngine();
    const first = await engine.compile(remote);
    assert.equal(first.result.status === 'refused' && first.result.refusal.code, 'remote_ref');
    for (let i = 0; i < 3; i++) {
      const again = await engine.compile(structuredClone(remote));
      assert.deepEqual(again.result, first.result);
    }
    await engine.validate(remote, {});
    assert.equal(engine.stats().compiles, 1);
    assert.equal(engine.stats().cachedSchemas, 1);
  });

  it('answers validate with the cached refusal', async () => {
    const engine = createEngine();
    const outcome = await engine.validate(remote, { a: 1 });
    assert.ok(outcome.status === 'refused');
    assert.equal(outcome.refusal.code, 'remote_ref');
  });

  it('does not grow compiles when validating the same schema many times', async () => {
    const engine = createEngine();
    for (let i = 0; i < 5; i++) await engine.validate({ type: 'integer' }, i);
    assert.equal(engine.stats().compiles, 1);
    assert.equal(engine.stats().validations, 5);
  });

  it('keeps tool-mode and form-mode compilations apart', async () => {
    const engine = createEngine();
    const schema = { type: 'string', format: 'email' };
    await engine.compile(schema);
    await engine.compile(schema, 'assert-form');
    await engine.validateElicitation(schema, 'a@b.example');
    assert.equal(engine.stats().compiles, 2);
  });

  it('validates by fingerprint after compile', async () => {
    const engine = createEngine();
    const { fingerprint: print } = await engine.compile({ type: 'object', required: ['city'] });
    assert.deepEqual(await engine.validate(print, {}), {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'required', message: 'missing required property "city"' }],
    });
    assert.deepEqual(await engine.validate(print, { city: 'Oslo' }), { status: 'valid' });
    assert.deepEqual(await engine.validateJson(print, '{"city": "Oslo"}'), { status: 'valid' });
  });

  it('throws EngineError UNKNOWN_FINGERPRINT for a fingerprint never compiled', async () => {
    const engine = createEngine();
    throwsWithCode(() => engine.validate('0'.repeat(64), {}), 'UNKNOWN_FINGERPRINT');
    throwsWithCode(() => engine.validateJson('f'.repeat(64), '{}'), 'UNKNOWN_FINGERPRINT');
  });

  it('does not find a tool-mode fingerprint from another engine', async () => {
    const { fingerprint: print } = await createEngine().compile({ type: 'string' });
    throwsWithCode(() => createEngine().validate(print, 'x'), 'UNKNOWN_FINGERPRINT');
  });

  it('evicts the least recently used schema beyond cacheSize', async () => {
    const engine = createEngine({ cacheSize: 2 });
    const a = await engine.compile({ type: 'string' });
    const b = await engine.compile({ type: 'integer' });
    await engine.validate(a.fingerprint, 'x'); // a is now the most recently used
    const c = await engine.compile({ type: 'boolean' });
    assert.equal(engine.stats().cachedSchemas, 2);
    throwsWithCode(() => engine.validate(b.fingerprint, 1), 'UNKNOWN_FINGERPRINT');
    assert.deepEqual(await engine.validate(a.fingerprint, 'x'), { status: 'valid' });
    assert.deepEqual(await engine.validate(c.fingerprint, true), { status: 'valid' });
  });

  it('recompiles an evicted schema when it is seen again', async () => {
    const engine = createEngine({ cacheSize: 1 });
    await engine.compile({ type: 'string' });
    await engine.compile({ type: 'integer' });
    await engine.compile({ type: 'string' });
    assert.equal(engine.stats().compiles, 3);
    assert.equal(engine.stats().cachedSchemas, 1);
  });

  it('applies its own policy to compiled schemas', async () => {
    const engine = createEngine({ policy: { maxSubschemaDepth: 1 } });
    const { result } = await engine.compile({ properties: { a: { properties: { b: {} } } } });
    assert.equal(result.status === 'refused' && result.refusal.code, 'too_deep');
    assert.equal(engine.policy.maxSubschemaDepth, 1);
    assert.equal(engine.policy.maxSubschemas, 10_000);
  });

  it('refuses a schema with a lone surrogate, which has no canonical form, without caching it', async () => {
    const engine = createEngine();
    const { fingerprint: print, result } = await engine.compile({ description: '\ud800' });
    assert.equal(print, '');
    assert.equal(result.status === 'refused' && result.refusal.code, 'invalid_schema');
  });

  it('still refuses a 5,000-deep schema for its depth though it cannot be fingerprinted', async () => {
    let schema: unknown = {};
    for (let i = 0; i < 5000; i++) schema = { properties: { a: schema } };
    const { result } = await createEngine().compile(schema);
    assert.equal(result.status === 'refused' && result.refusal.code, 'too_deep');
  });
});

describe('policyHash', () => {
  it('differs between policies that can change a verdict', () => {
    assert.notEqual(policyHash(resolvePolicy()), policyHash(resolvePolicy({ maxSubschemas: 5 })));
    assert.notEqual(policyHash(resolvePolicy()), policyHash(resolvePolicy({ maxIssues: 5 })));
  });

  it('ignores the time budget, which does not change a compiled schema', () => {
    assert.equal(policyHash(resolvePolicy()), policyHash(resolvePolicy({ timeBudgetMs: 1000 })));
  });
});

describe('createLruCache', () => {
  it('evicts the least recently used key beyond its capacity', () => {
    const cache = createLruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.size, 2);
  });

  it('reports each entry it drops, evicted or replaced, and weighs by key and value', () => {
    const dropped: string[] = [];
    const cache = createLruCache<string, number>(
      10,
      { maxWeight: 10, weigh: (value, key) => value + key.length },
      { onDrop: (key, value) => dropped.push(`${key}=${value}`) },
    );
    cache.set('a', 3);
    cache.set('bb', 2);
    cache.set('a', 1);
    assert.deepEqual(dropped, ['a=3']);
    assert.equal(cache.weight, 6);
    cache.set('ccc', 4);
    assert.deepEqual(dropped, ['a=3', 'bb=2']);
    assert.equal(cache.weight, 9);
  });

  it('refreshes a key that is set again', () => {
    const cache = createLruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    assert.equal(cache.get('a'), 10);
    assert.equal(cache.get('b'), undefined);
  });
});

describe('memory bound of the compiled-schema cache', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Full collections until the heap stops shrinking: code the earlier tests ran ages out (V8 flushes unused
  // bytecode after a few collections), and that must not happen inside a measurement and hide what was retained.
  // A large engine an earlier test dropped (4,096 compiled tools, ~90 MB) may take more than one collection to go, so
  // the heap must hold still for two collections in a row.
  const settleHeap = (): void => {
    let last = Number.POSITIVE_INFINITY;
    let still = 0;
    for (let i = 0; i < 16 && still < 2; i++) {
      gc();
      const used = process.memoryUsage().heapUsed;
      still = used >= last - 16 * 1024 ? still + 1 : 0;
      last = used;
    }
  };

  it('evicts by estimated size as well as by count, keeping the newest', async () => {
    // Each schema weighs about 13 KB (src/engine/core/compiled-weight.ts): two fit in 30,000 bytes, three do not.
    const engine = createEngine({ maxCacheBytes: 30_000 });
    const schema = (i: number) => ({ description: 'x'.repeat(2_000), properties: { [`p${i}`]: { type: 'string' } } });
    for (let i = 0; i < 5; i++) await engine.compile(schema(i));
    assert.equal(engine.stats().cachedSchemas, 2);
    const before = engine.stats().compiles;
    await engine.compile(schema(4));
    assert.equal(engine.stats().compiles, before, 'the newest stayed cached');
    await engine.compile(schema(0));
    assert.equal(engine.stats().compiles, before + 1, 'the oldest was evicted');
  });

  it('keeps 4,096 typical tools compiled under the default cap', async () => {
    const tools = typicalTools(4096);
    const engine = createEngine();
    const verdicts = await engine.compileTools(tools);
    assert.equal(new Set(verdicts.map((v) => v.fingerprint)).size, 4096);
    assert.equal(engine.stats().cachedTools, 4096);
    const compiles = engine.stats().compiles;
    for (const verdict of verdicts) assert.doesNotThrow(() => engine.validateArguments(verdict.fingerprint, {}), verdict.name);
    await engine.compileTools(tools);
    assert.equal(engine.stats().compiles, compiles, 'nothing was evicted and compiled again');
  });

  it('estimates the heap a compiled schema retains once used within 0.75-1.5 of it (the MCP schema: 2), small to large', async () => {
    const mcp = readFileSync(new URL('../../fixtures/mcp-spec/schema-2025-11-25.json', import.meta.url), 'utf8');
    const small = JSON.stringify(fixtures[0]?.schema ?? {});
    const medium = JSON.stringify(fixtures[1]?.schema ?? {});
    const long = JSON.stringify({ ...fixtures[0]?.schema, description: 'Lorem ipsum dolor sit amet. '.repeat(300) });
    const variant = (text: string) => (i: number) => ({ ...JSON.parse(text), $comment: `copy ${i}` });
    // Each copy is validated once: the adapter prepares its `uniqueItems` twin and the engine its work plans at the
    // first validation, and an entry is cached to be used.
    // The MCP schema is all definitions: no walk reaches its `anyOf`s, so it is flat and no verdict twin is built,
    // which the estimate (fitted with twins) still counts. An over-estimate is safe; it stays under 2.
    const shapes: [string, (i: number) => unknown, number, unknown, number][] = [
      ['small fixture', variant(small), 300, fixtures[0]?.valid, 1.5],
      ['medium fixture', variant(medium), 60, fixtures[1]?.valid, 1.5],
      ['long descriptions', variant(long), 100, fixtures[0]?.valid, 1.5],
      ['the MCP 2025-11-25 schema', variant(mcp), 12, {}, 2],
    ];
    for (const [label, make, copies, instance, most] of shapes) {
      const engine = createEngine({ cacheSize: copies + 1, maxCacheBytes: Number.MAX_SAFE_INTEGER });
      await engine.compile(make(-1));
      settleHeap();
      const before = process.memoryUsage().heapUsed;
      let estimate = 0;
      // Each copy is parsed inside the measurement and dropped, as a tools/list answer is: what the engine keeps counts.
      for (let i = 0; i < copies; i++) {
        const { result } = await engine.compile(JSON.parse(JSON.stringify(make(i))));
        estimate += compiledWeight(result);
        if (result.status === 'accepted') result.schema.validate(instance);
      }
      settleHeap();
      const ratio = estimate / (process.memoryUsage().heapUsed - before);
      assert.ok(ratio > 0.75 && ratio < most, `${label}: estimate ${ratio.toFixed(2)} of the retained heap`);
    }
  });

  it('holds the heap of cached 250 KB schemas within the cap, so the default leaves half a 128 MB isolate free', async () => {
    const cap = 8 * 1024 * 1024;
    // Definitions and descriptions (the real-world large schema grown), or one enum of 30,000 strings.
    const kinds: ((i: number) => unknown)[] = [
      (i) => largeToolSchema(250, i),
      (i) => ({ type: 'string', enum: Array.from({ length: 30_000 }, (_, n) => `${i}:${n.toString(36)}`) }),
    ];
    for (const make of kinds) {
      await createEngine().compile(make(-1)); // first-use allocations outside the measurement
      gc();
      const before = process.memoryUsage().heapUsed;
      const engine = createEngine({ maxCacheBytes: cap });
      for (let i = 0; i < 10; i++) assert.ok((await engine.compile(JSON.parse(JSON.stringify(make(i))))).result.status === 'accepted');
      gc();
      const held = process.memoryUsage().heapUsed - before;
      // Ten retain 6-20 MB when all are kept (bench/cache-cost.ts --heap).
      assert.ok(engine.stats().cachedSchemas < 10, `${engine.stats().cachedSchemas} cached`);
      assert.ok(held <= cap * 1.1, `${(held / 2 ** 20).toFixed(1)} MiB held under an ${cap / 2 ** 20} MiB cap`);
    }
  });

  it('weighs a schema many tools share once: 4,096 tools of one 6 KB schema stay compiled under a 48 MiB cap', async () => {
    // A tool's own entry still weighs its canonical text (its cache key): 4,096 × 6 KB is 24 MiB.
    const shared = largeToolSchema(6, 0);
    const engine = createEngine({ maxCacheBytes: 48 * 1024 * 1024 });
    const tools = Array.from({ length: 4096 }, (_, i) => ({ name: `t${i}`, inputSchema: structuredClone(shared) }));
    const verdicts = engine.compileTools(tools);
    assert.ok(verdicts.every((verdict) => verdict.status === 'accepted'));
    assert.equal(engine.stats().compiles, 1);
    assert.equal(engine.stats().cachedTools, 4096);
    const { result } = engine.compile(shared);
    assert.equal(result.status, 'accepted');
    // Weighed per tool, the compiled schema alone would have filled the cap long before.
    assert.ok(4096 * compiledWeight(result) > 48 * 1024 * 1024, `${compiledWeight(result)} bytes a copy`);
    for (const verdict of verdicts) assert.doesNotThrow(() => engine.validateArguments(verdict.fingerprint, {}), verdict.name);
  });

  it('drops the tools holding a schema the cache evicts, so no tool keeps alive what no cache weighs', async () => {
    // Each schema weighs about 13 KB: one fits in 20,000 bytes, two do not.
    const engine = createEngine({ maxCacheBytes: 20_000 });
    const schema = (i: number) => ({ type: 'object', description: 'x'.repeat(2_000), properties: { [`p${i}`]: { type: 'string' } } });
    const [a1, a2] = engine.compileTools([
      { name: 'a1', inputSchema: schema(1) },
      { name: 'a2', inputSchema: schema(1) },
    ]);
    assert.equal(engine.stats().cachedTools, 2);
    const [b] = engine.compileTools([{ name: 'b', inputSchema: schema(2) }]);
    assert.equal(engine.stats().cachedSchemas, 1);
    assert.equal(engine.stats().cachedTools, 1);
    for (const gone of [a1, a2]) {
      assert.throws(
        () => engine.validateArguments(gone?.fingerprint ?? '', {}),
        (error: unknown) => (error as { code?: unknown }).code === 'UNKNOWN_FINGERPRINT',
      );
    }
    assert.deepEqual(engine.validateArguments(b?.fingerprint ?? '', {}), { status: 'valid' });
  });

  it('keeps the schemas of a tool in use: calling it marks its schema recently used', async () => {
    const engine = createEngine({ cacheSize: 2, maxCacheBytes: Number.MAX_SAFE_INTEGER });
    const [hot] = engine.compileTools([{ name: 'hot', inputSchema: { type: 'object', required: ['h'] } }]);
    engine.compileTools([{ name: 'other', inputSchema: { type: 'object', required: ['o'] } }]);
    // The hot tool's schema is now the least recently compiled; a call makes it the most recently used.
    engine.validateArguments(hot?.fingerprint ?? '', {});
    engine.compileTools([{ name: 'third', inputSchema: { type: 'object', required: ['t'] } }]);
    assert.equal(engine.validateArguments(hot?.fingerprint ?? '', {}).status, 'invalid');
  });

  it('keeps a tool in use: calling it marks the tool itself recently used, when its schema is shared', async () => {
    const engine = createEngine({ cacheSize: 2, maxCacheBytes: Number.MAX_SAFE_INTEGER });
    const shared = { type: 'object', required: ['s'] };
    const [hot] = engine.compileTools([{ name: 'hot', inputSchema: shared }]);
    const [other] = engine.compileTools([{ name: 'other', inputSchema: shared }]);
    // One schema for all three, so only the tool cache's own order decides which tool the third one pushes out.
    engine.validateArguments(hot?.fingerprint ?? '', {});
    engine.compileTools([{ name: 'third', inputSchema: shared }]);
    assert.equal(engine.validateArguments(hot?.fingerprint ?? '', {}).status, 'invalid');
    throwsWithCode(() => engine.validateArguments(other?.fingerprint ?? '', {}), 'UNKNOWN_FINGERPRINT');
  });

  it('forgets the fingerprint of an evicted tool, and compiles it again when it is listed again', async () => {
    const engine = createEngine({ cacheSize: 1 });
    const [a] = await engine.compileTools([{ name: 'a', inputSchema: { type: 'object', required: ['x'] } }]);
    const [b] = await engine.compileTools([{ name: 'b', inputSchema: { type: 'object' } }]);
    assert.throws(
      () => engine.validateArguments(a?.fingerprint ?? '', {}),
      (error: unknown) => (error as { code?: unknown }).code === 'UNKNOWN_FINGERPRINT',
    );
    assert.deepEqual(engine.validateArguments(b?.fingerprint ?? '', {}), { status: 'valid' });
    const [again] = await engine.compileTools([{ name: 'a', inputSchema: { required: ['x'], type: 'object' } }]);
    assert.equal(again?.fingerprint, a?.fingerprint);
    assert.equal(engine.validateArguments(a?.fingerprint ?? '', {}).status, 'invalid');
  });

  it('answers a known tool from the tool cache: the same verdict, no compile, one hit per schema', async () => {
    const engine = createEngine();
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['r'] } };
    const [first] = await engine.compileTools([tool]);
    const { compiles, cacheHits } = engine.stats();
    const [again] = await engine.compileTools([structuredClone({ ...tool, description: 'changed' })]);
    assert.deepEqual(again, first);
    assert.equal(engine.stats().compiles, compiles);
    assert.equal(engine.stats().cacheHits, cacheHits + 2);
  });
});

/**
 * Tools as public servers publish them: the bench corpus (flat, nested, pydantic, shared and output schemas, eight
 * 52-230 KB giants), its descriptions as long as real ones (the MCP schemas' own: 110-130 bytes of JSON per subschema), the bench fixtures, test/fixtures/real-world and the MCP specification's own schemas.
 */
function typicalTools(count: number): { name: string; inputSchema: unknown; outputSchema?: unknown }[] {
  const realWorld = new URL('../../fixtures/real-world/', import.meta.url);
  const extra = [
    ...readdirSync(realWorld)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(new URL(file, realWorld), 'utf8')) as { name: string; inputSchema: unknown }),
    ...fixtures.map((fixture) => ({ name: `fixture_${fixture.name}`, inputSchema: fixture.schema })),
    ...['2025-11-25', '2026-07-28'].map((revision) => ({
      name: `mcp_${revision}`,
      inputSchema: JSON.parse(readFileSync(new URL(`../../fixtures/mcp-spec/schema-${revision}.json`, import.meta.url), 'utf8')),
    })),
  ].filter((tool) => (tool.inputSchema as { type?: unknown }).type === 'object'); // MCP tools: a root of "type": "object"
  const lengthen = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema), (key, value) =>
      key === 'description' && typeof value === 'string'
        ? `${value} Leave it out to use the server's default; see its documentation.`
        : value,
    );
  const corpus = buildCorpus(count - extra.length).map((tool) => ({
    ...tool,
    inputSchema: lengthen(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { outputSchema: lengthen(tool.outputSchema) }),
  }));
  return JSON.parse(JSON.stringify([...corpus, ...extra])); // as a tools/list answer arrives: parsed text
}
