// Tool verdicts persisted through idb-keyval (fake-indexeddb in Node; the real browser is covered by e2e).
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStore, entries, get, set, type UseStore } from 'idb-keyval';
import { createIdbVerdictCache, createValidator, withSchemaValidation } from '../../src/host/node.ts';
import { isToolVerdict } from '../../src/host/verdict-cache.ts';
import type { ToolVerdict } from '../../src/protocol/index.ts';
import { startFixture } from '../helpers/mcp-fixture.ts';

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
    await cache.set('k', { name: 't', fingerprint: 'f', status: 'accepted', input: null, output: null, warnings: [] });
  });
});

/** Lists the fixture's tools once through an adapter on `store`, returning what it listed and how. */
async function listThrough(store: UseStore): Promise<{ names: string[]; warnings: string[]; fromCache: number; compiled: number }> {
  const fixture = await startFixture();
  const warnings: string[] = [];
  const summary = { fromCache: -1, compiled: -1 };
  const host = withSchemaValidation(fixture.client, {
    validator: createValidator({ mode: 'inline' }),
    cache: createIdbVerdictCache(store),
    onWarning: (w) => warnings.push(`${w.tool}:${w.code}`),
    onVerdicts: ({ fromCache, compiled }) => Object.assign(summary, { fromCache, compiled }),
  });
  try {
    const names = (await host.listTools()).tools.map((tool) => tool.name);
    return { names, warnings, ...summary };
  } finally {
    await fixture.close();
  }
}

/** A verdict as schemaval wrote it before `status` (`verdict`, `ok`): every schema accepted. */
function oldShape(verdict: ToolVerdict): unknown {
  return {
    name: verdict.name,
    fingerprint: verdict.fingerprint,
    verdict: 'accepted',
    input: verdict.input === null ? null : { ok: true },
    output: verdict.output === null ? null : { ok: true },
    warnings: [],
  };
}

describe('verdicts stored in another shape', () => {
  const fresh = { names: ['echo', 'weather', 'ask'], warnings: ['remote:remote_ref'] };

  it('keys every verdict with its format first, and never reads the old keys or an old-shape value', async () => {
    const written = createStore('schemaval-format-written', 'verdicts');
    assert.deepEqual(await listThrough(written), { ...fresh, fromCache: 0, compiled: 4 });
    const stored = await entries<string, ToolVerdict>(written);
    assert.equal(stored.length, 4);
    assert.ok(
      stored.every(([key]) => key.startsWith('v2|')),
      'the key starts with the verdict format',
    );

    // The same tools accepted in the old shape, under the old key (no format) and under the new one.
    const old = createStore('schemaval-format-old', 'verdicts');
    for (const [key, verdict] of stored) {
      await set(key.slice('v2|'.length), oldShape(verdict), old);
      await set(key, oldShape(verdict), old);
    }
    assert.deepEqual(await listThrough(old), { ...fresh, fromCache: 0, compiled: 4 }, 'every old entry is a miss');
    // The misses were judged again and their verdicts written in the new shape over the old ones.
    assert.deepEqual(await listThrough(old), { ...fresh, fromCache: 4, compiled: 0 });
  });

  it('treats a damaged or inconsistent verdict as a miss, never as accepted', async () => {
    const store = createStore('schemaval-format-damaged', 'verdicts');
    await listThrough(store);
    const stored = new Map(await entries<string, ToolVerdict>(store));
    const keyOf = (name: string): string => [...stored].find(([, verdict]) => verdict.name === name)?.[0] ?? '';
    const remote = stored.get(keyOf('remote')) as ToolVerdict;
    const echo = stored.get(keyOf('echo')) as ToolVerdict;
    const weather = stored.get(keyOf('weather')) as ToolVerdict;
    // Accepted while a schema is refused; another tool's fingerprint; a refusal without its reason.
    await set(keyOf('remote'), { ...remote, status: 'accepted' }, store);
    await set(keyOf('echo'), { ...echo, fingerprint: weather.fingerprint }, store);
    await set(keyOf('weather'), { ...weather, status: 'refused', output: { status: 'refused' } }, store);
    assert.deepEqual(await listThrough(store), { ...fresh, fromCache: 1, compiled: 3 });
  });

  it('isToolVerdict takes only the current shape', () => {
    const accepted: ToolVerdict = {
      name: 't',
      fingerprint: 'f',
      status: 'accepted',
      input: { status: 'accepted' },
      output: null,
      warnings: [],
    };
    const refusal = { code: 'remote_ref', message: 'no' } as const;
    const refused: ToolVerdict = { ...accepted, status: 'refused', input: { status: 'refused', refusal } };
    assert.ok(isToolVerdict(accepted));
    assert.ok(isToolVerdict(refused));
    assert.ok(isToolVerdict({ ...accepted, warnings: [{ code: 'unknown_format', message: 'x' }] }));
    for (const bad of [
      undefined,
      null,
      'accepted',
      [],
      oldShape(accepted),
      { ...accepted, verdict: 'accepted', status: undefined },
      { ...accepted, status: 'valid' },
      { ...accepted, input: { ok: true } },
      { ...accepted, input: { status: 'refused', refusal } },
      { ...refused, input: { status: 'accepted' } },
      { ...refused, input: { status: 'refused', code: 'remote_ref', message: 'no' } },
      { ...accepted, output: undefined },
      { ...accepted, warnings: undefined },
      { ...accepted, warnings: ['x'] },
      { ...accepted, name: 1 },
      { ...accepted, fingerprint: null },
    ]) {
      assert.equal(isToolVerdict(bad), false, JSON.stringify(bad));
    }
  });

  it('refuse() leaves an entry of the old shape alone', async () => {
    const store = createStore('schemaval-format-refuse-old', 'verdicts');
    const old = { name: 't', fingerprint: 'f', verdict: 'accepted', input: { ok: true }, output: null, warnings: [] };
    await set('1.0.0|cfworker|p|f', old, store);
    const cache = createIdbVerdictCache(store);
    assert.equal(await cache.refuse('f', 'input', { code: 'too_slow', message: 'slow' }), 0);
    assert.deepEqual(await get('1.0.0|cfworker|p|f', store), old);
    assert.equal(await cache.get('1.0.0|cfworker|p|f'), undefined, 'and get() reads it as a miss');
  });
});
