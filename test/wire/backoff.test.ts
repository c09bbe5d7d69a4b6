// The lane's back-off (src/wire/backoff.ts), shared by the host's reply poll and the worker's spin: each pause in a
// row lasts twice the one before, up to the cap, and a reset starts again from the first length.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBackoff } from '../../src/wire/index.ts';

/** How long the back-off stays paused after `pause(at)`, found by probing each millisecond from `at`. */
function pauseLength(backoff: ReturnType<typeof createBackoff>, at: number): number {
  backoff.pause(at);
  let ms = 0;
  while (backoff.paused(at + ms)) ms++;
  return ms;
}

describe('the lane back-off', () => {
  it('is not paused before the first pause', () => {
    const backoff = createBackoff(1, 8);
    assert.equal(backoff.paused(0), false);
    assert.equal(backoff.paused(1e9), false);
  });

  it('doubles each pause in a row up to the cap', () => {
    const backoff = createBackoff(1, 8);
    const lengths = [0, 100, 200, 300, 400, 500].map((at) => pauseLength(backoff, at));
    assert.deepEqual(lengths, [1, 2, 4, 8, 8, 8]);
  });

  it('starts again from the first length after a reset', () => {
    const backoff = createBackoff(2, 64);
    assert.deepEqual([pauseLength(backoff, 0), pauseLength(backoff, 100)], [2, 4]);
    backoff.reset();
    assert.equal(pauseLength(backoff, 200), 2);
  });

  it('a later pause replaces the earlier one from its own start', () => {
    const backoff = createBackoff(10, 10);
    backoff.pause(0);
    backoff.pause(5);
    assert.equal(backoff.paused(14), true);
    assert.equal(backoff.paused(15), false);
  });
});
