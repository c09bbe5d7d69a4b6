// Issue #17 in real workerd: inputs whose cost is multiplied by something no policy field bounded — a pattern's
// program size × the string (through /v1/validate and as a tool argument through /mcp), a compiled pointer's length ×
// the branches under it, a cached tool list × forged sessions. Each must be answered or refused within a second, and
// /healthz (probed every 250 ms) never silent for more than a second, through the repeated rounds of the memory test
// too (not while the inspector measures the heap, which pauses the isolate). Requests and probes go to the Worker's own
// socket, not through wrangler's dev proxy (see worker-url.ts). Forged session ids are refused 404 at once
// (the gateway seals the ids it hands out); the cached-list shapes run in sessions opened by `initialize`. Memory is
// asserted in the units that are bounded (see the last test): the Worker's JS heap after a full GC, within the caches'
// documented caps, and workerd's RSS levelling off round after round of the same attack.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type BoundsInput,
  bigPrograms,
  distinctPointerBody,
  type ListUpstream,
  longPointerBody,
  multiplierBodies,
  patternArgument,
  patternBodies,
} from '../../../test/fixtures/hostile-bounds.ts';
import { type HostileEdge, startHostileEdge } from '../helpers/hostile-edge.ts';
import { fillCaches, hostileRound, mcpRequest, openSession } from '../helpers/hostile-round.ts';
import { type Probe, probeHealth } from '../helpers/probe-health.ts';
import { inspectorPort, type WorkerHeap, workerHeapAfterGc } from '../helpers/worker-heap.ts';
import { workerUrl } from '../helpers/worker-url.ts';
import { mb, workerdMemory, workerRss } from '../helpers/workerd-rss.ts';
import type { WranglerDev } from '../helpers/wrangler-dev.ts';

/** Acceptance of #17: the longest one hostile request may take, and the longest /healthz may stay silent. */
const maxAnswerMs = 1000;
const maxSilenceMs = 1000;
/** The memory test's windows: the filler and rounds sending requests, or the inspector measuring the heap. */
type WindowKind = 'requests' | 'heap';
const mib = 1024 * 1024;
/**
 * What the isolate's caches may retain, summed, as docs/edge.md ("Memory budget") promises it: 40 MiB of caps, 56 MiB
 * with every cache full and both engine LRUs' newest entries at `maxCompiledBytes`. Written here, not read from
 * edge/src/http/isolate-engine.ts, so a cap raised in the code fails this test instead of moving its bound.
 */
const documentedCacheWorstCase = 56 * mib;
/** Beyond the heap at the start and the caches: what a request in flight and the runtime's own objects keep. */
const heapMargin = 8 * mib;
/**
 * How much the last repeat of the hostile round may add to workerd's RSS (read after `roundPauseMs` idle), and all
 * the repeats together. Five clean-clone runs saw repeats add 16.1 + 20.5, 4.0 + 8.6, 19.9 + 9.8, 21.2 + 6.3 and
 * 25.2 + 8.0 MB: tcmalloc's page heap grows in steps, so one repeat may add ~25 MB, but a leak adds on every one.
 */
const maxLastGrowth = 25 * mib;
const maxRepeatsGrowth = 50 * mib;
const roundPauseMs = 20_000;
/** A client-side cap per request: past it the case has long failed; keeps a run against unfixed code bounded. */
const capMs = 20_000;
/** In a series (40 schemas, 40 sessions) a request slower than this ends the series: the case has failed. */
const seriesStopMs = 5000;
const perTest = { timeout: 120_000 };

interface Timing {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly rss: number;
  readonly status: number | string;
}

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };

describe('issue #17 bounds under wrangler dev (real workerd)', () => {
  let edge: HostileEdge | undefined;
  let upstream: ListUpstream;
  let dev: WranglerDev;
  /** Where requests and probes go: the Worker's own socket (see worker-url.ts). */
  let url: string;
  let probe: Probe;
  /** The same probe through the dev port (wrangler's dev proxy): printed, not asserted (see worker-url.ts). */
  let viaProxy: Probe | undefined;
  /** The probe's longest silence when the tests of the shapes were done (what the first /healthz test asserts). */
  let asserted = 0;
  let rssAtStart = 0;
  let heapAtStart: WorkerHeap | undefined;
  let proxyAtStart = 0;
  let workerPid: number | undefined;
  const timings: Timing[] = [];

  before(async () => {
    edge = await startHostileEdge();
    ({ upstream, dev } = edge);
    // Through the dev port, wrangler's inspector relay (14,400-16,900 requests from its proxy to wrangler in one filler
    // of 3.7 MB lists) kept /healthz waiting 0.6-1.3 s at a time; on the Worker's own socket, 0.2 s in the same filler.
    url = await workerUrl(dev);
    // Warm both paths so the baseline holds a running isolate, not an empty one.
    await post('/v1/validate', { schema: { type: 'string' }, instance: 'x' });
    await mcp('default', { method: 'tools/list' });
    await mcp('default', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    const start = workerdMemory();
    rssAtStart = workerRss(start);
    workerPid = start.worker?.pid;
    proxyAtStart = start.processes.find((p) => p.role === 'proxy')?.rss ?? 0;
    const port = inspectorPort(dev.log());
    heapAtStart = port === undefined ? undefined : await workerHeapAfterGc(port);
    probe = probeHealth(url);
    viaProxy = probeHealth(dev.url);
  });

  after(async () => {
    await probe?.stop();
    await viaProxy?.stop();
    await edge?.stop();
    if (timings.length > 0) {
      console.log('issue #17 shapes in workerd: wall ms, workerd CPU ms, longest /healthz silence meanwhile, RSS after, answer');
      for (const t of timings) {
        const silence = probe?.silenceDuring(t.from, t.to) ?? 0;
        console.log(
          `  ${t.ms.toFixed(0).padStart(6)} ms ${t.cpuMs.toFixed(0).padStart(6)} cpu ${silence.toFixed(0).padStart(6)} silent ${mb(t.rss).padStart(9)}  ${t.status}  ${t.name}`,
        );
      }
      const longest = (what: WindowKind, by: Probe | undefined = probe): string =>
        Math.max(0, ...windows.filter((w) => w.what === what).map((w) => by?.silenceDuring(w.from, w.to) ?? 0)).toFixed(0);
      console.log(
        `/healthz longest silence: ${asserted.toFixed(0)} ms through the shapes above, ${longest('requests')} ms through the ` +
          `filler and repeated rounds; ${longest('heap')} ms while the inspector measured the heap (it pauses the isolate; ` +
          `not asserted), ${probe?.failures()} failed probes in all (${probe?.failureReasons().join(', ') || 'none'})`,
      );
      console.log(
        `/healthz through the dev port (wrangler's dev proxy, not asserted): longest silence ${viaProxy?.longestSilence().toFixed(0)} ms, ` +
          `${longest('requests', viaProxy)} ms through the filler and repeated rounds`,
      );
    }
  });

  async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(capMs),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const data = type.includes('text/event-stream')
      ? (text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .at(-1) ?? '')
      : text;
    try {
      return { status: response.status, body: data === '' ? {} : (JSON.parse(data) as Json) };
    } catch {
      // Not JSON: wrangler's own page ("Your Worker restarted mid-request…") or a platform error. Kept for the report.
      return { status: response.status, body: { text: text.slice(0, 200) } };
    }
  }

  /** One JSON-RPC request to /mcp as a 2025-11-25 client with credential `token` (and a session id, forged or not). */
  function mcp(token: string, message: { method: string; params?: unknown }, session?: string): Promise<Answer> {
    const { body, headers } = mcpRequest(token, message, session);
    return post('/mcp', body, headers);
  }

  /** Runs one request, recording its wall time and the CPU workerd spent meanwhile (and whether a workerd went away). */
  async function timed(name: string, run: () => Promise<Answer>): Promise<Answer & { ms: number }> {
    const before = workerdMemory();
    const started = performance.now();
    const record = (status: string): number => {
      const ms = performance.now() - started;
      const after = workerdMemory();
      const cpuMs = after.processes.reduce((sum, p) => sum + p.cpuMs - (before.processes.find((b) => b.pid === p.pid)?.cpuMs ?? 0), 0);
      const gone = before.processes.filter((b) => !after.processes.some((p) => p.pid === b.pid)).length;
      const to = performance.now();
      timings.push({
        name,
        from: started,
        to,
        ms,
        cpuMs,
        rss: workerRss(after),
        status: gone > 0 ? `${status} (a workerd process ended)` : status,
      });
      return ms;
    };
    let answer: Answer;
    try {
      answer = await run();
    } catch (error) {
      record(String((error as Error).name ?? error));
      throw error;
    }
    const error = answer.body.error as { code?: unknown; data?: { code?: unknown } } | undefined;
    const code = error === undefined ? undefined : [error.code, error.data?.code].filter((c) => c !== undefined).join(' ');
    const text = typeof answer.body.text === 'string' ? ` ${JSON.stringify(answer.body.text.slice(0, 60))}` : '';
    const ms = record(`${answer.status}${code === undefined ? '' : ` ${String(code)}`}${text}`);
    return { ...answer, ms };
  }

  /** A /v1/validate answer is honest: the right verdict, `maxWork` (declined), or a refusal; never a 5xx. */
  function assertHonest(input: BoundsInput, answer: Answer): void {
    const { status, body } = answer;
    assert.ok(status < 500, `${status}: ${JSON.stringify(body).slice(0, 300)}`);
    if (status === 422) {
      assert.equal(typeof (body.error as { code?: unknown })?.code, 'string');
      return;
    }
    assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
    if ((body.status === 'valid') === input.valid) return;
    const keywords = ((body.issues as { keyword: string }[] | undefined) ?? []).map((issue) => issue.keyword);
    assert.ok(keywords.includes('maxWork'), `wrong verdict ${JSON.stringify(body).slice(0, 300)}`);
  }

  const within = (ms: number, what: string) => assert.ok(ms <= maxAnswerMs, `${what}: ${ms.toFixed(0)} ms`);

  describe('pattern program size (item 1)', () => {
    for (const input of patternBodies()) {
      it(`/v1/validate: ${input.name}`, perTest, async () => {
        const answer = await timed(input.name, () => post('/v1/validate', { schema: input.schema, instance: input.instance }));
        assertHonest(input, answer);
        within(answer.ms, input.name);
      });
    }

    for (const key of Object.keys(bigPrograms) as (keyof typeof bigPrograms)[]) {
      it(`/mcp tools/call: ${bigPrograms[key]} with a 300 KB argument`, perTest, async () => {
        const list = await timed(`/mcp tools/list of the pattern tools (${key})`, () => mcp('patterns', { method: 'tools/list' }));
        assert.equal(list.status, 200);
        within(list.ms, 'tools/list');
        const argument = patternArgument(key);
        const forwardedBefore = upstream.seen.calls.get(`pattern-${key}`) ?? 0;
        const answer = await timed(`/mcp tools/call ${bigPrograms[key]} × 300 KB`, () =>
          mcp('patterns', { method: 'tools/call', params: { name: `pattern-${key}`, arguments: { text: argument.text } } }),
        );
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        const error = answer.body.error as { code?: number; data?: { code?: string; issues?: { keyword: string }[] } } | undefined;
        const forwarded = (upstream.seen.calls.get(`pattern-${key}`) ?? 0) > forwardedBefore;
        if (error === undefined) {
          // Forwarded: only an argument that matches may be.
          assert.ok(argument.valid, `an argument that does not match was forwarded: ${JSON.stringify(answer.body).slice(0, 200)}`);
          assert.ok(forwarded);
        } else {
          assert.equal(error.code, -32602, JSON.stringify(error).slice(0, 300));
          assert.ok(!forwarded, 'refused, yet forwarded');
          // Refused as a tool (a refusal code), declined (maxWork), or truly invalid (pattern) when it does not match.
          const keywords = (error.data?.issues ?? []).map((issue) => issue.keyword);
          if (error.data?.code === 'invalid_arguments')
            assert.ok(keywords.includes('maxWork') || (!argument.valid && keywords.includes('pattern')), `issues: ${keywords.join(', ')}`);
        }
        within(answer.ms, `tools/call ${key}`);
      });
    }
  });

  describe('compiled pointer length (item 2)', () => {
    it('30 nested properties under one 8,000-character name over anyOf × 1,000 (257 KB)', perTest, async () => {
      const input = longPointerBody();
      const answer = await timed(input.name, () => post('/v1/validate', { schema: input.schema, instance: input.instance }));
      assertHonest(input, answer);
      within(answer.ms, input.name);
    });

    it('the 243 KB variant with distinct names, 40 different schemas one after another', { timeout: 300_000 }, async () => {
      const slow: string[] = [];
      for (let seed = 0; seed < 40; seed++) {
        const input = distinctPointerBody(seed);
        const answer = await timed(input.name, () => post('/v1/validate', { schema: input.schema, instance: input.instance }));
        assertHonest(input, answer);
        if (answer.ms > maxAnswerMs) slow.push(`#${seed}: ${answer.ms.toFixed(0)} ms`);
        if (answer.ms > seriesStopMs) break;
      }
      assert.deepEqual(slow, []);
    });
  });

  describe('gateway cache bytes (item 3)', () => {
    it('forged Mcp-Session-Ids are refused 404 unknown_session at once, and reach no Durable Object and no upstream', perTest, async () => {
      const slow: string[] = [];
      const listsBefore = ['bulky', 'long'].map((token) => upstream.seen.lists.get(token) ?? 0);
      const callsBefore = upstream.seen.calls.get('nowhere') ?? 0;
      const objectsBefore = dev.durableObjects();
      // The shapes that each made a state key of their own before the ids were sealed (hostile-round.ts sends the same).
      const forged: (readonly [string, string, { method: string; params?: unknown }])[] = [
        ...Array.from({ length: 40 }, (_, i) => [`forged-${i}-${'f'.repeat(16)}`, 'bulky', { method: 'tools/list' }] as const),
        ...Array.from(
          { length: 10 },
          (_, i) => [`forged-call-${i}`, 'bulky', { method: 'tools/call', params: { name: 'nowhere', arguments: {} } }] as const,
        ),
        ...Array.from({ length: 10 }, (_, i) => [`forged-long-${i}`, 'long', { method: 'tools/list' }] as const),
      ];
      for (const [session, token, message] of forged) {
        const answer = await timed(`${message.method} (${token}), forged session ${session}`, () => mcp(token, message, session));
        assert.equal(answer.status, 404, JSON.stringify(answer.body).slice(0, 300));
        assert.equal((answer.body.error as { data?: { code?: string } } | undefined)?.data?.code, 'unknown_session');
        if (answer.ms > maxAnswerMs) slow.push(`${session}: ${answer.ms.toFixed(0)} ms`);
      }
      assert.deepEqual(slow, []);
      assert.deepEqual(
        ['bulky', 'long'].map((token) => upstream.seen.lists.get(token) ?? 0),
        listsBefore,
      );
      assert.equal(upstream.seen.calls.get('nowhere') ?? 0, callsBefore);
      assert.ok(![...upstream.seen.sessions].some((id) => id.startsWith('forged-')), 'a forged id reached the upstream');
      assert.equal(dev.durableObjects(), objectsBefore, 'a forged id made a Durable Object');
    });

    it('one list of 50 × 233 KB tools in 40 sessions opened by initialize', { timeout: 300_000 }, async () => {
      const slow: string[] = [];
      for (let i = 0; i < 40; i++) {
        const session = await openSession(url, 'bulky');
        const answer = await timed(`tools/list 50 × 233 KB, session ${i}`, () => mcp('bulky', { method: 'tools/list' }, session));
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        const result = answer.body.result as { tools?: unknown[]; _meta?: Json } | undefined;
        const error = answer.body.error as { data?: { code?: string } } | undefined;
        // Either the filtered list (every tool accepted, or refused with a reason), or a JSON-RPC error that says why.
        if (result !== undefined) {
          const refused = (result._meta?.['io.schemaval/refused'] as unknown[] | undefined) ?? [];
          assert.equal((result.tools?.length ?? 0) + refused.length, 50);
        } else assert.equal(typeof error?.data?.code, 'string', JSON.stringify(answer.body).slice(0, 300));
        if (answer.ms > maxAnswerMs) slow.push(`session ${i}: ${answer.ms.toFixed(0)} ms`);
        if (answer.ms > seriesStopMs) break;
      }
      assert.deepEqual(slow, []);
    });

    it('a call to an unknown tool in 10 sessions: each one lists 50 × 233 KB again', { timeout: 300_000 }, async () => {
      const slow: string[] = [];
      for (let i = 0; i < 10; i++) {
        const session = await openSession(url, 'bulky');
        const answer = await timed(`tools/call unknown tool, session ${i} (lists 50 × 233 KB)`, () =>
          mcp('bulky', { method: 'tools/call', params: { name: 'nowhere', arguments: {} } }, session),
        );
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        const error = answer.body.error as { data?: { code?: string } } | undefined;
        assert.equal(typeof error?.data?.code, 'string', JSON.stringify(answer.body).slice(0, 300));
        if (answer.ms > maxAnswerMs) slow.push(`session ${i}: ${answer.ms.toFixed(0)} ms`);
        if (answer.ms > seriesStopMs) break;
      }
      assert.deepEqual(slow, []);
    });
  });

  describe('further multipliers (item 5)', () => {
    for (const input of multiplierBodies()) {
      it(`/v1/validate: ${input.name}`, perTest, async () => {
        const answer = await timed(input.name, () => post('/v1/validate', { schema: input.schema, instance: input.instance }));
        assertHonest(input, answer);
        within(answer.ms, input.name);
      });
    }

    it('tools/list of 50 tools with 233 KB names in 10 sessions opened by initialize', { timeout: 300_000 }, async () => {
      const slow: string[] = [];
      for (let i = 0; i < 10; i++) {
        const session = await openSession(url, 'long');
        const answer = await timed(`tools/list 50 × 233 KB names, session ${i}`, () => mcp('long', { method: 'tools/list' }, session));
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        if (answer.ms > maxAnswerMs) slow.push(`session ${i}: ${answer.ms.toFixed(0)} ms`);
        if (answer.ms > seriesStopMs) break;
      }
      assert.deepEqual(slow, []);
    });

    it('/mcp tools/list of 10,000 tiny tools, then a call to the last', perTest, async () => {
      const list = await timed('tools/list of 10,000 tiny tools', () => mcp('tiny', { method: 'tools/list' }));
      assert.equal(list.status, 200);
      assert.equal(((list.body.result as { tools?: unknown[] } | undefined)?.tools ?? []).length, 10_000);
      within(list.ms, 'tools/list of 10,000 tools');
      const call = await timed('tools/call tiny-9999 after the list', () =>
        mcp('tiny', { method: 'tools/call', params: { name: 'tiny-9999', arguments: { n: 1 } } }),
      );
      assert.equal(call.status, 200);
      assert.equal(call.body.error, undefined, JSON.stringify(call.body).slice(0, 300));
      within(call.ms, 'tools/call after 10,000 tools');
    });
  });

  it('answered /healthz throughout, never silent for more than a second', () => {
    asserted = probe.longestSilence();
    assert.equal(probe.failures(), 0, `failed probes: ${probe.failureReasons().join(', ')}`);
    assert.ok(probe.longestSilence() <= maxSilenceMs, `/healthz silent for ${probe.longestSilence().toFixed(0)} ms`);
    assert.doesNotMatch(dev.log(), /heap limit|Reached heap|exceeded CPU|out of memory/i);
  });

  // Memory, in the units that are bounded. Not "RSS back within 100 MB of its start": workerd allocates with tcmalloc,
  // whose freed pages stay mapped, and wrangler dev keeps every Durable Object it ever started in the same process.
  // Measured (2 cores at load 3-14): RSS 80 -> 278 -> 302 -> 315 -> 320 MB over the four rounds below (+13, +4.5 MB on
  // the repeats; 80 -> 254 -> 303 -> 319 with three rounds in CI), 20 s pause after each (85 -> 251 -> 295 -> 323 before session ids were sealed, when each forged id
  // was a Durable Object of ~0.18 MB never returned; now the 60 forged ids of a round add ~2.5 MB and no Durable
  // Object, the filler's 20 real sessions one each), while the Worker's JS heap after a full GC stays at 29.5-30.4 MB
  // from the first round to the last (95-101 MB, failing, with the caches' caps raised tenfold). What the Worker
  // retains is its heap, bounded below; RSS is asserted to level off over repeats of the round.
  const memory: { round: number; rss: number; heap: WorkerHeap | undefined }[] = [];
  /**
   * When the rounds below sent requests, and when the inspector measured the heap. A forced GC and a heap count
   * through the inspector pause the isolate for 9-22 s here, and /healthz with it (some probes fail meanwhile): the
   * test's own doing, so only the request windows are held to the silence bound.
   */
  const windows: { readonly what: WindowKind; readonly from: number; readonly to: number }[] = [];
  const timedWindow = async <T>(what: WindowKind, run: () => Promise<T>): Promise<T> => {
    const from = performance.now();
    try {
      return await run();
    } finally {
      windows.push({ what, from, to: performance.now() });
    }
  };

  it("the Worker's JS heap after a full GC stays within the caches' documented caps, round after round", { timeout: 600_000 }, async () => {
    const port = inspectorPort(dev.log());
    assert.ok(port !== undefined, "edge/dev.mjs did not print the inspector's port");
    const reloads = () => dev.log().split('Reloading local server').length - 1;
    const reloadsBefore = reloads();
    const settle = async (round: number) => {
      await new Promise((resolve) => setTimeout(resolve, roundPauseMs));
      const heap = await timedWindow('heap', () => workerHeapAfterGc(port));
      memory.push({ round, rss: workerRss(workerdMemory()), heap });
    };
    // Round 1 is the tests above and the cache filler; rounds 2 to 4 send every shape again (the filler too), under
    // new forged session ids: the same round three times, so its repeats can be compared.
    await timedWindow('requests', () => fillCaches(url));
    await settle(1);
    for (const round of [2, 3, 4]) {
      await timedWindow('requests', () => hostileRound(url, `round-${round}`));
      await settle(round);
    }
    const end = workerdMemory();
    console.log(
      `workerd (the Worker's runtime): RSS at start ${mb(rssAtStart)}, heap at start ${mb(heapAtStart?.used ?? 0)}; ` +
        memory
          .map(
            (r) => `after round ${r.round}: RSS ${mb(r.rss)}, heap after GC ${mb(r.heap?.used ?? 0)} (${mb(r.heap?.total ?? 0)} committed)`,
          )
          .join('; ') +
        `; peak RSS ${mb(end.worker?.peak ?? end.peak)}; wrangler's dev proxy RSS ${mb(proxyAtStart)} -> ${mb(end.processes.find((p) => p.role === 'proxy')?.rss ?? 0)}` +
        `; Durable Objects with state: ${dev.durableObjects()}`,
    );
    // A runtime that was replaced (it crashed, or wrangler reloaded it) starts again small: its memory says nothing.
    assert.equal(
      end.worker?.pid,
      workerPid,
      `the Worker's runtime process was replaced during the run (${reloads()} reloads for changed sources in wrangler's log)`,
    );
    assert.equal(reloads(), reloadsBefore, 'wrangler reloaded the Worker during the rounds: its heap is a new one');
    // What the Worker retains: after a full GC its heap holds its caches (at their caps after the filler) and little
    // else, however many rounds.
    const heapBound = (heapAtStart?.used ?? 0) + documentedCacheWorstCase + heapMargin;
    for (const { round, heap } of memory) {
      assert.ok(heap !== undefined, 'no inspector target answered');
      assert.ok(heap.used <= heapBound, `after round ${round} the GC-ed heap holds ${mb(heap.used)}: over ${mb(heapBound)}`);
    }
  });

  // Levelling off compares a round with its own repeats: round 2 is the first run of hostileRound (round 1 was the
  // tests and the filler, other requests), where the allocator and the JIT size themselves for its shapes; what a
  // leak would show is growth on every repeat. Round 2's own growth is printed above, not bounded here (the heap is).
  it('workerd RSS levels off: the last repeat of the hostile round adds at most 25 MB, all repeats 50 MB', () => {
    assert.ok(memory.length >= 4, 'the heap test above records the rounds');
    const rss = (i: number): number => memory[i]?.rss ?? 0;
    const trail = memory.map((r) => mb(r.rss)).join(' -> ');
    const last = memory.length - 1;
    assert.ok(
      rss(last) - rss(last - 1) <= maxLastGrowth,
      `the last round grew RSS ${mb(rss(last) - rss(last - 1))} (over ${mb(maxLastGrowth)}): ${trail}`,
    );
    assert.ok(
      rss(last) - rss(1) <= maxRepeatsGrowth,
      `the repeats grew RSS ${mb(rss(last) - rss(1))} (over ${mb(maxRepeatsGrowth)}): ${trail}`,
    );
  });

  it('answered /healthz through the filler and the repeated rounds too, never silent for more than a second', () => {
    const requests = windows.filter((w) => w.what === 'requests');
    assert.equal(requests.length, 4, 'the heap test above records the filler and three rounds');
    const silences = requests.map((w) => probe.silenceDuring(w.from, w.to));
    const failed = requests.reduce((sum, w) => sum + probe.failuresDuring(w.from, w.to), 0);
    assert.equal(failed, 0, `${failed} probes failed while the filler or a round was sending`);
    assert.ok(Math.max(...silences) <= maxSilenceMs, `/healthz silent for ${silences.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  });
});
