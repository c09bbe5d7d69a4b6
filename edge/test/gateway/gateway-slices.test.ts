// A long tools/list does not hold the isolate: the gateway compiles it a slice at a time and yields between slices,
// so other requests (/healthz among them) are answered meanwhile (issue #17; wrangler-bounds.test.ts measures it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, type Engine } from '../../../src/engine/index.ts';
import { bulkyTools, tinyTools } from '../../../test/fixtures/hostile-bounds.ts';
import { compileInSlices, sliceBytes } from '../../src/gateway/tool-gate.ts';

describe('compileInSlices', () => {
  it('compiles 1,000 tools in slices of 256, letting a timer run between them, with the verdicts of one call', async () => {
    const engine = createEngine();
    const slices: number[] = [];
    let timerRanAfter: number | undefined;
    const counting: Engine = {
      ...engine,
      compileTools: (tools) => {
        slices.push(tools.length);
        return engine.compileTools(tools);
      },
    };
    setTimeout(() => {
      timerRanAfter = slices.length;
    }, 0);
    const tools = tinyTools(1000);
    const verdicts = await compileInSlices(counting, tools);
    assert.deepEqual(slices, [256, 256, 256, 232]);
    assert.equal(timerRanAfter, 1, 'the timer ran after the first slice, before the second');
    assert.deepEqual(verdicts, createEngine().compileTools(tools));
  });

  it('closes a slice before its definitions pass 256 KB, so a few large tools do not make one long slice', async () => {
    const engine = createEngine();
    const slices: number[] = [];
    const timers: number[] = [];
    const counting: Engine = {
      ...engine,
      compileTools: (tools) => {
        slices.push(tools.length);
        setTimeout(() => timers.push(slices.length), 0);
        return engine.compileTools(tools);
      },
    };
    const tools = [...bulkyTools(5, 100 * 1024, 'hundred'), ...bulkyTools(2, 233 * 1024, 'large'), ...tinyTools(3)];
    assert.ok(JSON.stringify(tools.slice(0, 3)).length > sliceBytes, 'three of the first tools would pass the bound');
    const verdicts = await compileInSlices(counting, tools);
    // 2 × 100 KB, 2 × 100 KB, 100 KB alone (233 KB would pass 256 KB), 233 KB, 233 KB with the three tiny ones.
    assert.deepEqual(slices, [2, 2, 1, 1, 4]);
    assert.deepEqual(timers.slice(0, 4), [1, 2, 3, 4], 'a timer ran between every two slices');
    assert.deepEqual(verdicts, createEngine().compileTools(tools));
  });

  it('compiles a short list in one call, without yielding', async () => {
    const slices: number[] = [];
    const engine = createEngine();
    const counting: Engine = {
      ...engine,
      compileTools: (tools) => {
        slices.push(tools.length);
        return engine.compileTools(tools);
      },
    };
    assert.equal((await compileInSlices(counting, tinyTools(256))).length, 256);
    assert.deepEqual(slices, [256]);
  });
});
