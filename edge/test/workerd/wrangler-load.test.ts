// Issue #17's load run under `wrangler dev` (real workerd), on 127.0.0.1: 50 clients of normal traffic (a small
// /v1/validate, and /mcp tools/call through an upstream) for 5 s, then the same beside one hostile client sending the
// pattern body of item 1 in a loop. The attack must keep at least half the baseline throughput (same run, same
// machine), and nothing may be answered with a 5xx. The figures come from bench/edge-attack.ts (`runLoad`).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describePhase, type LoadRun, normalTool, runLoad } from '../../../bench/edge-attack.ts';
import { createListUpstream, type ListUpstream, patternBodies } from '../../../test/fixtures/hostile-bounds.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

/** Of the baseline's throughput, what must remain under attack (the figure). */
const minRatio = 0.5;

describe('load with one hostile client under wrangler dev (issue #17)', () => {
  let upstream: ListUpstream;
  let dev: WranglerDev;
  let run: LoadRun;

  before(async () => {
    upstream = await createListUpstream({ load: [normalTool], default: [normalTool] });
    dev = await startWranglerDev({ UPSTREAM_MCP_URL: await upstream.listen() });
  });

  after(async () => {
    await dev?.stop();
    await upstream?.close();
  });

  it('runs 5 s of baseline, then 5 s beside the hostile client', { timeout: 90_000 }, async () => {
    run = await runLoad(dev.url, { clients: 50, seconds: 5, mcp: true, hostileBody: JSON.stringify(patternBodies()[0]) });
    console.log(describePhase('baseline', run.baseline));
    console.log(describePhase('under attack', run.attack));
    console.log(`under attack / baseline: ${run.ratio.toFixed(2)}`);
    assert.ok(run.baseline.answered > 0, 'no normal request was answered');
    // The normal traffic is what it should be: every call a verdict or a forwarded result.
    assert.equal(run.baseline.wrong, 0);
  });

  it(`keeps at least ${minRatio * 100}% of the baseline throughput under attack`, () => {
    assert.ok(run !== undefined, 'the load run did not complete');
    assert.ok(
      run.ratio >= minRatio,
      `${run.attack.rps.toFixed(0)} rps under attack vs ${run.baseline.rps.toFixed(0)} rps baseline (${run.ratio.toFixed(2)})`,
    );
  });

  it('answers nothing with a 5xx, and every normal request is answered', () => {
    assert.ok(run !== undefined, 'the load run did not complete');
    assert.equal(run.baseline.serverErrors + run.attack.serverErrors, 0, '5xx answers to normal traffic');
    assert.equal(run.baseline.failures + run.attack.failures, 0, 'normal requests that got no answer');
    assert.equal(run.attack.wrong, 0, 'normal requests answered wrongly under attack');
    const hostile5xx = Object.entries(run.attack.hostile.statuses).filter(([status]) => status.startsWith('5'));
    assert.deepEqual(hostile5xx, [], 'the hostile body was answered with a 5xx');
  });
});
