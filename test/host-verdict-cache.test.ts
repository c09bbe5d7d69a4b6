// Tool verdicts persisted through idb-keyval (fake-indexeddb in Node; the real browser is covered by e2e).
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStore } from 'idb-keyval';
import { createIdbVerdictCache, createValidator, withSchemaValidation } from '../src/host/node.ts';
import { startFixture } from './helpers/mcp-fixture.ts';

describe('IndexedDB verdict cache', () => {
  it('lets a second adapter know every tool without compiling, then compile an accepted one lazily', async () => {
    const store = createStore('schemaval-test', 'verdicts');
    const first = await startFixture();
    const firstValidator = createValidator({ mode: 'inline' });
    const host1 = withSchemaValidation(first.client, { validator: firstValidator, cache: createIdbVerdictCache(store) });
    const listed1 = await host1.listTools();
    assert.ok((await firstValidator.stats()).compiles > 0);
    await first.close();

    const second = await startFixture();
    const secondValidator = createValidator({ mode: 'inline' });
    const warnings: string[] = [];
    const summaries: { fromCache: number; compiled: number }[] = [];
    const host2 = withSchemaValidation(second.client, {
      validator: secondValidator,
      cache: createIdbVerdictCache(store),
      onWarning: (w) => warnings.push(`${w.tool}:${w.code}`),
      onVerdicts: ({ fromCache, compiled }) => summaries.push({ fromCache, compiled }),
    });
    const listed2 = await host2.listTools();
    assert.deepEqual(listed2.tools, listed1.tools);
    assert.deepEqual(warnings, ['remote:remote_ref'], 'the refused tool is known without recompiling');
    assert.equal((await secondValidator.stats()).compiles, 0, 'no schema compiled for known fingerprints');
    assert.deepEqual(summaries, [{ fromCache: 4, compiled: 0 }]);

    const error = await host2.callTool({ name: 'echo', arguments: {} }).catch((e: { code: number; message: string }) => e);
    assert.equal((error as { code: number }).code, -32602, 'arguments are still checked');
    assert.ok((await secondValidator.stats()).compiles > 0, 'the called tool was compiled on demand');
    assert.equal(second.seen.calls.length, 0);
    await second.close();
  });

  it('degrades to no cache when IndexedDB fails', async () => {
    const broken = () => Promise.reject(new Error('quota exceeded'));
    const cache = createIdbVerdictCache(broken as never);
    assert.equal(await cache.get('k'), undefined);
    await cache.set('k', { name: 't', fingerprint: 'f', verdict: 'accepted', input: null, output: null, warnings: [] });
  });
});
