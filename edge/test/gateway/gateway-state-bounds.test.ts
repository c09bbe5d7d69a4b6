// The gateway's state is bounded by retained bytes as well as by count (issue #17 item 2): one list of large tools
// fetched in many sessions must not grow the isolate past its caches' caps. In process: the gateway (memory session
// stores, the isolate tool cache) → a raw upstream that opens a session per initialize and lists the same large tools
// to every session. (Forged session ids no longer make state keys: they are refused, gateway-sessions.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEngine } from '../../../src/engine/index.ts';
import { createListUpstream, postInSession } from '../../../test/helpers/list-upstream.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { createMemorySessionStores, type StoredTool, textBytes } from '../../src/state/session-store.ts';
import { createToolCache } from '../../src/state/tool-cache.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Live heap after a full collection. */
const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const mib = 1024 * 1024;
const upstreamUrl = 'http://big.test/mcp';

/** A tool of about `bytes` of JSON, as public servers publish them: many described properties. */
function largeTool(name: string, bytes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const count = Math.ceil(bytes / 1200);
  for (let i = 0; i < count; i++) properties[`field_${i}`] = { type: 'string', description: `${name} field ${i} `.padEnd(1150, 'x') };
  return { name, inputSchema: { type: 'object', properties, required: ['field_0'] } };
}

const padding = 'x'.repeat(256 * 1024);

/**
 * A stored tool with a definition string of its own, as the gateway makes one per list it reads: concatenated here,
 * so it holds its own copy once the cache measures (and so flattens) it.
 */
function storedTool(name: string, bytes: number, wide = false): StoredTool {
  const head = `{"name":"${name}","inputSchema":{"type":"object","description":"${wide ? '€' : ''}`;
  const definition = `${head}${padding.slice(0, Math.max(0, bytes - head.length - 3))}"}}`;
  return {
    name,
    verdict: { name, fingerprint: name.padStart(64, '0'), status: 'accepted', input: { status: 'accepted' }, output: null, warnings: [] },
    definition,
    hasOutputSchema: false,
  };
}

describe('textBytes', () => {
  it('counts UTF-8 bytes, or two per UTF-16 unit for a string V8 stores two bytes wide', () => {
    assert.equal(textBytes('abc'), 3);
    assert.equal(textBytes('é'), 2);
    assert.equal(textBytes('😀'), 4);
    assert.equal(textBytes('日本'), 6);
    assert.equal(textBytes(`${'x'.repeat(1000)}€`), 2002);
    assert.equal(textBytes('\ud800'), 3);
  });
});

describe('isolate tool cache bytes', () => {
  // The attack of issue #17 was 40 sessions; fewer keep the test short and still list many times the cap.
  for (const [sessions, wide] of [
    [12, false],
    [5, true],
  ] as const) {
    it(`keeps ${sessions} sessions × a list of 50 tools of 233 KB under its byte cap, counting what the heap holds (${wide ? 'two-byte' : 'one-byte'} texts)`, () => {
      const maxBytes = 8 * mib;
      const cache = createToolCache({ maxBytes });
      const before = heapUsed();
      // Fresh texts per session, as the gateway stringifies each list it reads: 11.6 MB each, mostly garbage at once.
      // Made and handed over inside a function, so the test itself keeps no list alive when the heap is measured.
      const list = (session: number): number => {
        const key = { upstream: upstreamUrl, stateKey: `${'f'.repeat(64)}:forged-${session}` };
        const tools = Array.from({ length: 50 }, (_, i) => storedTool(`tool-${session}-${i}`, 233_000, wide));
        cache.remember(key, tools, { first: true });
        return tools.reduce((sum, tool) => sum + tool.definition.length, 0);
      };
      let listed = 0;
      for (let session = 0; session < sessions; session++) {
        listed += list(session);
        assert.ok(cache.stats().bytes <= maxBytes, `${cache.stats().bytes} bytes after session ${session}`);
      }
      const held = heapUsed() - before;
      const { bytes, evictions, tools } = cache.stats();
      assert.ok(listed > 5 * maxBytes, `the sessions listed ${listed} bytes`);
      assert.ok(evictions > 0 && tools <= Math.floor(maxBytes / 233_000), `${tools} tools, ${evictions} evicted`);
      assert.ok(bytes > maxBytes / 2, `the cache holds ${bytes} bytes`);
      // The accounting is what the heap really retains: never much less (the cap would not bound memory), nor much more.
      assert.ok(held <= bytes * 1.1 + mib, `heap grew ${held} bytes for ${bytes} counted`);
      assert.ok(held >= bytes * 0.7, `heap grew ${held} bytes for ${bytes} counted`);
    });
  }

  it('counts list keys too, so many sessions with small lists are bounded by bytes and by maxLists', () => {
    const cache = createToolCache({ maxBytes: mib, maxLists: 1000 });
    for (let session = 0; session < 5000; session++) {
      // A session id is the client's to choose, long or short.
      const key = { upstream: upstreamUrl, stateKey: `scope:${String(session).padEnd(2000, 's')}` };
      cache.remember(key, [storedTool('echo', 10)], { first: true });
    }
    const { bytes, lists } = cache.stats();
    assert.ok(bytes <= mib, `${bytes} bytes`);
    assert.ok(lists <= 1000 && lists > 100, `${lists} lists`);
  });

  it('gives back the bytes of a replaced, expired or forgotten list', () => {
    let clock = 0;
    const cache = createToolCache({ now: () => clock });
    const key = { upstream: upstreamUrl, stateKey: 's:1' };
    cache.remember(key, [storedTool('a', 10_000), storedTool('b', 10_000)], { first: true, ttlMs: 60_000 });
    const two = cache.stats().bytes;
    cache.remember(key, [storedTool('a', 10_000)], { first: true, ttlMs: 60_000 });
    assert.ok(cache.stats().bytes < two - 10_000);
    clock += 60_000;
    assert.equal(cache.own(key, 'a'), undefined);
    assert.deepEqual(cache.stats(), { tools: 0, lists: 0, bytes: 0, evictions: 0 });
    cache.remember(key, [storedTool('a', 10_000)], { first: true });
    cache.forget(key);
    assert.equal(cache.stats().bytes, 0);
  });
});

describe('memory session stores', () => {
  it('are bounded by bytes and by sessions, and give back what a replaced list, an answer or a clear frees', async () => {
    const stores = createMemorySessionStores({ maxBytes: 2 * mib, maxSessions: 100 });
    for (let session = 0; session < 30; session++) await stores(`k:${session}`).putTools([storedTool('big', 233_000)], { first: true });
    assert.ok(stores.stats().bytes <= 2 * mib);
    assert.ok(stores.stats().evictions > 0);
    assert.equal(await stores('k:0').getTool('big'), undefined);
    assert.ok(await stores('k:29').getTool('big'));

    const store = stores('k:29');
    const before = stores.stats().bytes;
    await store.putTools([storedTool('small', 10)], { first: true });
    assert.ok(stores.stats().bytes < before - 200_000);
    await store.putElicitation('e1', JSON.stringify({ type: 'object', description: 'x'.repeat(100_000) }));
    const withForm = stores.stats().bytes;
    assert.ok(await store.takeElicitation('e1'));
    assert.ok(stores.stats().bytes < withForm - 100_000);
    await store.clear();
    for (let session = 0; session < 200; session++) await stores(`s:${session}`).putTools([storedTool('echo', 10)], { first: true });
    assert.ok(stores.stats().sessions <= 100);
  });
});

describe('gateway under many sessions', () => {
  it('keeps a list of large tools fetched in each session within the caches, and still checks every call', async () => {
    const tools = Array.from({ length: 12 }, (_, i) => largeTool(`big-${i}`, 233_000));
    const { fetch: upstream, seen } = createListUpstream(() => tools);
    const calls = seen.calls;
    const cap = 4 * mib;
    const toolCache = createToolCache({ maxBytes: cap });
    const sessions = createMemorySessionStores({ maxBytes: cap });
    const gateway = createMcpGateway({
      engine: createEngine(),
      upstreamUrl,
      sessions,
      toolCache,
      outputPolicy: 'enforce',
      fetch: upstream,
    });
    const send = async (session: string, message: Record<string, unknown>) => {
      const response = await postInSession(gateway, session, message);
      return (await response.json()) as { result?: { tools?: unknown[] }; error?: { data?: { code?: string } } };
    };

    const listed = tools.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
    const sessionCount = 8;
    for (let i = 0; i < sessionCount; i++) {
      const answer = await send(`session-${i}`, { method: 'tools/list' });
      assert.equal(answer.result?.tools?.length, tools.length);
      assert.ok(toolCache.stats().bytes <= cap, `tool cache ${toolCache.stats().bytes} bytes after session ${i}`);
      assert.ok(sessions.stats().bytes <= cap, `session stores ${sessions.stats().bytes} bytes after session ${i}`);
    }
    assert.ok(sessionCount * listed > 5 * cap, `the sessions listed ${sessionCount * listed} bytes`);
    assert.ok(toolCache.stats().evictions > 0);
    assert.ok(sessions.stats().evictions > 0);
    assert.ok(toolCache.stats().bytes > cap / 2, 'the cap is used, not undercut by a wrong count');

    // Eviction forgets, it never admits: an evicted session's call lists again and is checked; so is the newest.
    assert.equal(seen.lists, sessionCount);
    const evicted = await send('session-0', { method: 'tools/call', params: { name: 'big-11', arguments: { field_0: 1 } } });
    assert.equal(evicted.error?.data?.code, 'invalid_arguments');
    assert.equal(seen.lists, sessionCount + 1);
    const newest = await send(`session-${sessionCount - 1}`, {
      method: 'tools/call',
      params: { name: 'big-11', arguments: { field_0: 'ok' } },
    });
    assert.equal(newest.error, undefined);
    assert.deepEqual(calls, [{ field_0: 'ok' }]);
  });
});
