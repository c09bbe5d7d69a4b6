// Caches (docs/architecture.md#fingerprints-and-caches): compiled schemas and refusals by fingerprint + adapter + policy, LRU-bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, createLruCache, fingerprint, policyHash, resolvePolicy } from '../src/engine/index.ts';

const remote = { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } };

async function rejectsWithCode(run: () => Promise<unknown> | unknown, code: string): Promise<void> {
  await assert.rejects(
    async () => run(),
    (error: unknown) => (error as { code?: unknown }).code === code,
  );
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
    assert.equal(!first.result.ok && first.result.refusal.code, 'remote_ref');
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
    assert.ok('refused' in outcome);
    assert.equal(outcome.refused.code, 'remote_ref');
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
      valid: false,
      issues: [{ path: '$', keyword: 'required', message: 'missing required property "city"' }],
    });
    assert.deepEqual(await engine.validate(print, { city: 'Oslo' }), { valid: true });
    assert.deepEqual(await engine.validateJson(print, '{"city": "Oslo"}'), { valid: true });
  });

  it('throws EngineError UNKNOWN_FINGERPRINT for a fingerprint never compiled', async () => {
    const engine = createEngine();
    await rejectsWithCode(() => engine.validate('0'.repeat(64), {}), 'UNKNOWN_FINGERPRINT');
    await rejectsWithCode(() => engine.validateJson('f'.repeat(64), '{}'), 'UNKNOWN_FINGERPRINT');
  });

  it('does not find a tool-mode fingerprint from another engine', async () => {
    const { fingerprint: print } = await createEngine().compile({ type: 'string' });
    await rejectsWithCode(() => createEngine().validate(print, 'x'), 'UNKNOWN_FINGERPRINT');
  });

  it('evicts the least recently used schema beyond cacheSize', async () => {
    const engine = createEngine({ cacheSize: 2 });
    const a = await engine.compile({ type: 'string' });
    const b = await engine.compile({ type: 'integer' });
    await engine.validate(a.fingerprint, 'x'); // a is now the most recently used
    const c = await engine.compile({ type: 'boolean' });
    assert.equal(engine.stats().cachedSchemas, 2);
    await rejectsWithCode(() => engine.validate(b.fingerprint, 1), 'UNKNOWN_FINGERPRINT');
    assert.deepEqual(await engine.validate(a.fingerprint, 'x'), { valid: true });
    assert.deepEqual(await engine.validate(c.fingerprint, true), { valid: true });
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
    assert.equal(!result.ok && result.refusal.code, 'too_deep');
    assert.equal(engine.policy.maxSubschemaDepth, 1);
    assert.equal(engine.policy.maxSubschemas, 10_000);
  });

  it('refuses a schema with a lone surrogate, which has no canonical form, without caching it', async () => {
    const engine = createEngine();
    const { fingerprint: print, result } = await engine.compile({ description: '\ud800' });
    assert.equal(print, '');
    assert.equal(!result.ok && result.refusal.code, 'invalid_schema');
  });

  it('still refuses a 5,000-deep schema for its depth though it cannot be fingerprinted', async () => {
    let schema: unknown = {};
    for (let i = 0; i < 5000; i++) schema = { properties: { a: schema } };
    const { result } = await createEngine().compile(schema);
    assert.equal(!result.ok && result.refusal.code, 'too_deep');
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
  it('evicts by estimated size as well as by count, keeping the newest', async () => {
    const engine = createEngine({ maxCacheBytes: 40_000 });
    const schema = (i: number) => ({ description: 'x'.repeat(2_000), properties: { [`p${i}`]: { type: 'string' } } });
    for (let i = 0; i < 5; i++) await engine.compile(schema(i));
    const { cachedSchemas } = engine.stats();
    assert.ok(cachedSchemas >= 1 && cachedSchemas <= 2, `${cachedSchemas} cached`);
    const before = engine.stats().compiles;
    await engine.compile(schema(4));
    assert.equal(engine.stats().compiles, before, 'the newest stayed cached');
    await engine.compile(schema(0));
    assert.equal(engine.stats().compiles, before + 1, 'the oldest was evicted');
  });
});
