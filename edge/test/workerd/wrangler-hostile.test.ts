// The edge holds (issue #9): every hostile body is answered by real workerd under `wrangler dev`, the isolate never
// dies, and /healthz, probed every 250 ms the whole time, never goes unanswered for more than a second. Bodies and
// probes go to the Worker's own socket, not through wrangler's dev proxy (worker-url.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hostileInputs } from '../../../test/fixtures/hostile-inputs.ts';
import { type Probe, probeHealth } from '../helpers/probe-health.ts';
import { workerUrl } from '../helpers/worker-url.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

/** The longest a probe may wait for /healthz, and the longest one hostile request may take (acceptance of #9). */
const maxSilenceMs = 1000;

describe('hostile inputs under wrangler dev (real workerd)', () => {
  let dev: WranglerDev;
  let url: string;
  let probe: Probe;
  const timings: { name: string; ms: number }[] = [];

  before(async () => {
    dev = await startWranglerDev();
    url = await workerUrl(dev);
    probe = probeHealth(url);
  });

  after(async () => {
    await probe?.stop();
    await dev?.stop();
    if (timings.length > 0) {
      const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
      const slowest = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
      console.log(
        `hostile bodies in workerd: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, ` +
          `slowest ${slowest.ms.toFixed(0)} ms (${slowest.name}); /healthz longest silence ${probe?.longestSilence().toFixed(0)} ms`,
      );
    }
  });

  for (const input of hostileInputs) {
    it(`answers: ${input.name}`, async () => {
      const started = performance.now();
      const response = await fetch(`${url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schema: input.schema, instance: input.instance }),
        signal: AbortSignal.timeout(60_000),
      });
      const body = (await response.json()) as { status?: string; issues?: { keyword: string }[]; error?: { code: string } };
      timings.push({ name: input.name, ms: performance.now() - started });
      if (typeof input.expect === 'string') {
        assert.equal(response.status, 422);
        assert.equal(body.error?.code, input.expect);
        return;
      }
      assert.equal(response.status, 200, JSON.stringify(body).slice(0, 300));
      if (input.expect) {
        assert.deepEqual(body, { status: 'valid' });
        return;
      }
      assert.equal(body.status, 'invalid');
      assert.ok((body.issues?.length ?? 0) > 0);
      if (input.keyword !== undefined) {
        const keywords = new Set(body.issues?.map((issue) => issue.keyword));
        assert.ok(keywords.has(input.keyword) || keywords.has('maxWork'), `keywords: ${[...keywords].join(', ')}`);
      }
    });
  }

  it('stayed alive and answered /healthz throughout', async () => {
    const response = await fetch(`${url}/healthz`);
    assert.equal(response.status, 200);
    assert.equal(probe.failures(), 0);
    assert.ok(probe.longestSilence() <= maxSilenceMs, `/healthz silent for ${probe.longestSilence().toFixed(0)} ms`);
    assert.doesNotMatch(dev.log(), /heap limit|Reached heap|exceeded CPU/i);
  });

  it('answered every hostile body within a second', () => {
    const slow = timings.filter((t) => t.ms > maxSilenceMs);
    assert.deepEqual(slow, []);
  });
});
