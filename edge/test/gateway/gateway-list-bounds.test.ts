// Issue #17: what one upstream tools/list may cost the gateway, each bound in its own unit and failing closed. In
// process: the upstream's answer (UPSTREAM_MAX_BYTES, 4 MiB by default), what one state key may store
// (`maxStateBytes`), store failures (a JSON-RPC error, never an HTTP 500), and tool names (128 characters).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../src/engine/index.ts';
import { bulkyTools, longNameTools } from '../../../test/fixtures/hostile-bounds.ts';
import { createListUpstream, postInSession } from '../../../test/helpers/list-upstream.ts';
import { readEdgeConfig } from '../../src/gateway/edge-config.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { GatewayStateError } from '../../src/rpc/gateway-error.ts';
import { withToolCache } from '../../src/state/cached-session-store.ts';
import {
  createMemorySessionStores,
  maxStateBytes,
  packTool,
  type SessionStore,
  type SessionStores,
  type StoredTool,
  toolsBytes,
  unpackTool,
} from '../../src/state/session-store.ts';
import { createToolCache } from '../../src/state/tool-cache.ts';

const mib = 1024 * 1024;
const upstreamUrl = 'http://list.test/mcp';
const defaults = readEdgeConfig({});

type Answer = {
  status: number;
  body: { result?: { tools?: unknown[] }; error?: { code?: number; message?: string; data?: { code?: string } } };
};

/** A gateway in front of an upstream that answers every tools/list with `tools()` (and counts the lists). */
function gatewayFor(tools: () => readonly unknown[], options: { upstreamMaxBytes?: number; sessions?: SessionStores } = {}) {
  const { fetch: upstream, seen } = createListUpstream(tools);
  const sessions = options.sessions ?? createMemorySessionStores({ maxBytes: 64 * mib });
  const gateway = createMcpGateway({
    engine: createEngine(),
    upstreamUrl,
    sessions,
    toolCache: createToolCache({ maxBytes: 64 * mib }),
    outputPolicy: 'warn',
    fetch: upstream,
    upstreamMaxBytes: options.upstreamMaxBytes ?? defaults.upstreamMaxBytes,
  });
  const send = async (message: Record<string, unknown>, session = 'session-1'): Promise<Answer> => {
    const response = await postInSession(gateway, session, message, 7);
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  return { send, seen };
}

const small = (name: string) => ({ name, inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } });

describe('UPSTREAM_MAX_BYTES: 4 MiB by default', () => {
  it('refuses an 11.6 MB tools/list upstream_too_large and admits a 3.5 MB one', async () => {
    assert.equal(defaults.upstreamMaxBytes, 4 * mib);
    const big = gatewayFor(() => bulkyTools());
    const refused = await big.send({ method: 'tools/list' });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.error?.code, -32603);
    assert.equal(refused.body.error?.data?.code, 'upstream_too_large');
    assert.match(refused.body.error?.message ?? '', /over 4194304 bytes/);

    // A call to a tool the gateway has not seen lists the same way, within the same bound.
    const call = await big.send({ method: 'tools/call', params: { name: 'nowhere', arguments: {} } }, 'session-2');
    assert.equal(call.status, 200);
    assert.equal(call.body.error?.data?.code, 'upstream_too_large');
    assert.equal(big.seen.calls.length, 0);

    const fifteen = bulkyTools(15);
    assert.ok(JSON.stringify({ tools: fifteen }).length > 3.4 * mib);
    const fits = gatewayFor(() => fifteen);
    const listed = await fits.send({ method: 'tools/list' });
    assert.equal(listed.body.result?.tools?.length, 15);
  });
});

describe('state per key: maxStateBytes', () => {
  it('is 8 MiB: twice the default upstream bound, a quarter of workerd RPC argument limit', () => {
    assert.equal(maxStateBytes, 8 * mib);
    assert.ok(maxStateBytes >= 2 * defaults.upstreamMaxBytes && maxStateBytes * 4 <= 32 * mib);
  });

  it('answers a list the state cannot keep with a JSON-RPC error, and forgets the key list it replaced', async () => {
    let tools: readonly unknown[] = [small('echo')];
    const { send, seen } = gatewayFor(() => tools, { upstreamMaxBytes: 32 * mib });
    assert.equal((await send({ method: 'tools/list' })).body.result?.tools?.length, 1);
    tools = bulkyTools(50);
    const answer = await send({ method: 'tools/list' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.error?.code, -32603);
    assert.equal(answer.body.error?.data?.code, 'state_too_large');
    assert.match(answer.body.error?.message ?? '', /over 8388608$/);
    // echo was in the list this one replaced: neither list may serve it, so the call lists again.
    tools = [small('echo')];
    const lists = seen.lists;
    const call = await send({ method: 'tools/call', params: { name: 'echo', arguments: { n: 1 } } });
    assert.equal(call.body.error, undefined);
    assert.equal(seen.lists, lists + 1);
  });

  it('answers a call whose own listing the state cannot keep with state_too_large, never forwarding it', async () => {
    const { send, seen } = gatewayFor(() => bulkyTools(50), { upstreamMaxBytes: 32 * mib });
    const call = await send({ method: 'tools/call', params: { name: 'bulky-3', arguments: { text: 'x' } } });
    assert.equal(call.status, 200);
    assert.equal(call.body.error?.code, -32603);
    assert.equal(call.body.error?.data?.code, 'state_too_large');
    assert.equal(seen.calls.length, 0);
  });

  it('turns any store failure (workerd refusing an RPC of 35 MB) into state_unavailable, not HTTP 500', async () => {
    const broken: SessionStores = () => ({
      putTools: async () => {
        throw new Error('Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: 35804173 bytes.');
      },
      getTool: async () => undefined,
      putElicitation: async () => undefined,
      takeElicitation: async () => undefined,
      clear: async () => undefined,
    });
    const { send } = gatewayFor(() => [small('echo')], { sessions: broken });
    const answer = await send({ method: 'tools/list' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.error?.code, -32603);
    assert.equal(answer.body.error?.data?.code, 'state_unavailable');
    assert.doesNotMatch(answer.body.error?.message ?? '', /RPC|35804173/);
  });

  it('refuses a page over the bound before sending it: the store only gets the empty list that replaces the old one', async () => {
    const pages: { count: number; first: boolean }[] = [];
    const store: SessionStore = {
      putTools: async (tools, page) => void pages.push({ count: tools.length, first: page.first }),
      getTool: async () => undefined,
      putElicitation: async () => undefined,
      takeElicitation: async () => undefined,
      clear: async () => undefined,
    };
    const cache = createToolCache();
    const key = { upstream: upstreamUrl, stateKey: 'scope:s' };
    const wrapped = withToolCache(store, cache, key, 10_000);
    await wrapped.putTools([stored('a', 100)], { first: true });
    assert.ok(cache.own(key, 'a'));
    const over = [stored('b', 6000), stored('c', 6000)];
    assert.ok(toolsBytes(over) > 10_000);
    await assert.rejects(wrapped.putTools(over, { first: false }), (error: unknown) => {
      assert.ok(error instanceof GatewayStateError);
      assert.equal(error.code, 'state_too_large');
      return true;
    });
    assert.deepEqual(pages, [
      { count: 1, first: true },
      { count: 0, first: true },
    ]);
    assert.equal(cache.own(key, 'a'), undefined);
  });

  it('empties the key list when the store refuses the pages added up: none of the list stays', async () => {
    const stores = createMemorySessionStores({ maxStateBytes: 10_000 });
    const cache = createToolCache();
    const key = { upstream: upstreamUrl, stateKey: 'scope:s' };
    const wrapped = withToolCache(stores('scope:s'), cache, key);
    await wrapped.putTools([stored('a', 6000)], { first: true });
    await assert.rejects(wrapped.putTools([stored('b', 6000)], { first: false }), (error: unknown) => {
      assert.ok(error instanceof GatewayStateError);
      assert.equal(error.code, 'state_too_large');
      assert.match(error.message, /over 10000$/);
      return true;
    });
    assert.equal(await wrapped.getTool('a'), undefined);
    assert.equal(await wrapped.getTool('b'), undefined);
  });

  it('in a memory store, pages add up to the bound: past it none of the list is kept', async () => {
    const stores = createMemorySessionStores({ maxStateBytes: 10_000 });
    const store = stores('scope:s');
    await store.putTools([stored('a', 4000)], { first: true });
    await store.putTools([stored('b', 4000)], { first: false });
    await assert.rejects(store.putTools([stored('c', 4000)], { first: false }), /^Error: state_too_large: .* over 10000$/);
    for (const name of ['a', 'b', 'c']) assert.equal(await store.getTool(name), undefined);
    await store.putTools([stored('d', 4000)], { first: true });
    assert.ok(await store.getTool('d'));
  });

  it('keeps a name out of a Durable Object row record but for its definition: packTool, unpackTool', () => {
    const tool = stored('x'.repeat(1000), 50);
    const copies = (text: string) => text.split('x'.repeat(1000)).length - 1;
    assert.equal(copies(JSON.stringify(tool)), 3);
    const record = packTool(tool);
    // The row's key holds the name; the definition (compiled again by other isolates) its only other copy.
    assert.equal(copies(record), 1);
    assert.deepEqual(unpackTool(tool.name, record), tool);
  });

  it('reads a record of an older format (verdicts before `status`) as missing, never as an accepted tool', () => {
    const refused = { verdict: 'refused', input: { ok: false, code: 'remote_ref', message: 'no' }, output: null, warnings: [] };
    const old = JSON.stringify({ definition: '{}', hasOutputSchema: false, verdict: { fingerprint: '', ...refused } });
    assert.equal(unpackTool('t', old), undefined);
    const accepted = { fingerprint: 'f'.repeat(64), verdict: 'accepted', input: { ok: true }, output: null, warnings: [] };
    assert.equal(unpackTool('t', JSON.stringify({ definition: '{}', hasOutputSchema: false, verdict: accepted })), undefined);
    // A record that claims the format but carries no verdict status is not trusted either.
    const record = JSON.parse(packTool(stored('t', 10))) as { verdict: Record<string, unknown> };
    assert.equal(unpackTool('t', JSON.stringify({ ...record, verdict: { ...record.verdict, status: undefined } })), undefined);
    assert.equal(unpackTool('t', JSON.stringify({ ...record, format: 1 })), undefined);
    assert.equal(unpackTool('t', 'null'), undefined);
    assert.deepEqual(unpackTool('t', JSON.stringify(record)), stored('t', 10));
  });
});

describe('the Durable Object written after the response (`later`, workerd ctx.waitUntil)', () => {
  /** A store whose tool writes wait until `release()`, or fail with `fail`; it records what reached it. */
  function slowStore(fail?: Error) {
    const inner = createMemorySessionStores({ maxBytes: 64 * mib })('scope:s');
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const written: number[] = [];
    const store: SessionStore = {
      ...inner,
      putTools: async (tools, page) => {
        await released;
        if (fail !== undefined && tools.length > 0) throw fail;
        written.push(tools.length);
        await inner.putTools(tools, page);
      },
    };
    return { store, release, written };
  }

  function deferringGateway(store: SessionStore, tools: () => readonly unknown[]) {
    const { fetch: upstream, seen } = createListUpstream(tools);
    const work: Promise<unknown>[] = [];
    const gateway = createMcpGateway({
      engine: createEngine(),
      upstreamUrl,
      sessions: () => store,
      toolCache: createToolCache({ maxBytes: 64 * mib }),
      outputPolicy: 'warn',
      fetch: upstream,
      // Raised, so that a list reaches the state's own bound (below).
      upstreamMaxBytes: 32 * mib,
    });
    const deferring = (request: Request) => gateway(request, (promise) => void work.push(promise));
    const send = async (message: Record<string, unknown>): Promise<Answer> => {
      const response = await postInSession(deferring, 'session-1', message, 7);
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    return { send, seen, work };
  }

  const typed = { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } };

  it('answers the list before the store is written, and checks calls from the isolate cache meanwhile', async () => {
    const { store, release, written } = slowStore();
    const { send, seen, work } = deferringGateway(store, () => [typed]);
    const list = await send({ method: 'tools/list' });
    assert.equal(list.body.result?.tools?.length, 1);
    assert.deepEqual(written, [], 'the store is still waiting');
    assert.equal(work.length, 1);
    const wrong = await send({ method: 'tools/call', params: { name: 'count', arguments: { n: 'one' } } });
    assert.equal(wrong.body.error?.data?.code, 'invalid_arguments');
    assert.equal(seen.calls.length, 0);
    assert.equal(seen.lists, 1, 'the call was checked without listing again');
    release();
    await Promise.all(work);
    assert.deepEqual(written, [1]);
    assert.equal((await store.getTool('count'))?.verdict.status, 'accepted');
  });

  it('forgets the list when the late write fails, so the next call lists again instead of trusting half a state', async () => {
    const { store, release } = slowStore(new Error("state_too_large: this state key's tools would take 9 bytes: over 8"));
    const { send, seen, work } = deferringGateway(store, () => [typed]);
    assert.equal((await send({ method: 'tools/list' })).body.result?.tools?.length, 1);
    release();
    await Promise.all(work);
    const lists = seen.lists;
    const call = await send({ method: 'tools/call', params: { name: 'count', arguments: { n: 'one' } } });
    assert.equal(seen.lists, lists + 1, 'the call listed again');
    assert.equal(seen.calls.length, 0);
    assert.ok(call.body.error !== undefined);
  });

  it('still refuses a page over the state bound at once, before anything is deferred', async () => {
    const { store, release } = slowStore();
    release();
    const { send, work } = deferringGateway(store, () => bulkyTools(50));
    const answer = await send({ method: 'tools/list' });
    assert.equal(answer.body.error?.data?.code, 'state_too_large');
    assert.equal(work.length, 0);
  });
});

describe('tool names: at most 128 characters', () => {
  it('refuses a longer name invalid_tool, quoting only 60 characters of it', async () => {
    const engine = createEngine();
    const [exact, wide, over, huge] = await engine.compileTools([
      small('a'.repeat(128)),
      small('😀'.repeat(128)),
      small('b'.repeat(129)),
      small(`long-0-`.padEnd(233 * 1024, 'a')),
    ]);
    assert.equal(exact?.status, 'accepted');
    assert.equal(wide?.status, 'accepted', '128 code points in 256 UTF-16 units');
    assert.equal(over?.status, 'refused');
    assert.deepEqual(over?.input, {
      status: 'refused',
      refusal: { code: 'invalid_tool', message: `tool name "${'b'.repeat(60)}…" is 129 characters long: over 128` },
    });
    const message = huge?.input?.status === 'refused' ? huge.input.refusal.message : '';
    assert.equal(message, `tool name "long-0-${'a'.repeat(53)}…" is ${233 * 1024} characters long: over 128`);
  });

  it('lists 50 tools with 233 KB names through the gateway as a JSON-RPC answer, never a 500', async () => {
    // Raised bound: the names alone are 11.6 MB, which the default refuses as upstream_too_large.
    const { send } = gatewayFor(() => longNameTools(), { upstreamMaxBytes: 32 * mib });
    const answer = await send({ method: 'tools/list' });
    assert.equal(answer.status, 200);
    // Each refused tool keeps its name twice (record, verdict): 23 MB of state, over the bound.
    assert.equal(answer.body.error?.data?.code, 'state_too_large');
  });
});

function stored(name: string, bytes: number): StoredTool {
  return {
    name,
    verdict: { name, fingerprint: 'f'.repeat(64), status: 'accepted', input: { status: 'accepted' }, output: null, warnings: [] },
    definition: JSON.stringify({ name, inputSchema: { type: 'object', description: 'd'.repeat(bytes) } }),
    hasOutputSchema: false,
  };
}
