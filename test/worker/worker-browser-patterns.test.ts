// The page's worker loads re2js on demand (src/worker/page-entry.ts): a batch that may compile a pattern waits for
// the load, later batches keep their order, and a failed load still answers (the engine fails what needs re2js).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LanePort, WorkerRequest } from '../../src/protocol/validator-service.ts';
import { type LaneBatch, putRequest, startBatch } from '../../src/wire/index.ts';
import { listenPatternsFirst } from '../../src/worker/patterns-first-lane.ts';
import { requestMayHavePatterns } from '../../src/worker/request-patterns.ts';

const batchOf = (seq: number, ...requests: WorkerRequest[]): LaneBatch => {
  const batch = startBatch(seq);
  for (const request of requests) putRequest(batch, request);
  return batch;
};
const withPattern: WorkerRequest = { op: 'compile', schema: { properties: { q: { type: 'string', pattern: '^(a|b)+$' } } } };
const plain: WorkerRequest = { op: 'compile', schema: { type: 'object', properties: { q: { type: 'string' } } } };

/** A lane whose messages the test sends, and a load the test settles. */
function harness() {
  const lane = { postMessage: () => undefined } as unknown as LanePort & { onmessage?: (event: { data: unknown }) => void };
  const delivered: number[] = [];
  const loads: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const load = () =>
    new Promise<void>((resolve, reject) => {
      loads.push({ resolve, reject });
    });
  listenPatternsFirst(load)(
    lane,
    (data) => delivered.push((data as LaneBatch)[0] as number),
    () => undefined,
  );
  const send = (batch: LaneBatch): void => lane.onmessage?.({ data: batch });
  return { delivered, loads, send };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the page worker: re2js before patterns', () => {
  it('tells requests that may compile a pattern from those that cannot', () => {
    assert.equal(requestMayHavePatterns(withPattern), true);
    assert.equal(requestMayHavePatterns(plain), false);
    assert.equal(requestMayHavePatterns({ op: 'compileTools', tools: [{ name: 't', inputSchema: { patternProperties: {} } }] }), true);
    assert.equal(requestMayHavePatterns({ op: 'validate', schema: { pattern: 'x' }, instance: 'x' }), true);
    // Lossless JSON text: the word, or an escape that could spell it.
    assert.equal(requestMayHavePatterns({ op: 'compile', schema: '{"pattern":"^a"}', encoded: ['schema'] }), true);
    assert.equal(requestMayHavePatterns({ op: 'compile', schema: '{"\\u0070attern":"^a"}', encoded: ['schema'] }), true);
    assert.equal(requestMayHavePatterns({ op: 'validateJson', schema: '{"type":"string"}', text: '"x"', encoded: ['schema'] }), false);
    // A fingerprint compiles nothing; nor does a validation by fingerprint with a value that holds the word.
    assert.equal(requestMayHavePatterns({ op: 'validate', schema: 'ab12', instance: { pattern: 'x' } }), false);
    assert.equal(requestMayHavePatterns({ op: 'validateArguments', fingerprint: 'ab12', instance: { pattern: 'x' } }), false);
  });

  it('runs batches without patterns at once and holds one with a pattern, and all after it, until re2js is loaded', async () => {
    const { delivered, loads, send } = harness();
    send(batchOf(1, plain));
    assert.deepEqual(delivered, [1]);
    send(batchOf(2, plain, withPattern));
    send(batchOf(4, plain));
    assert.deepEqual(delivered, [1], 'held while loading, in order');
    assert.equal(loads.length, 1);
    loads[0]?.resolve();
    await turn();
    assert.deepEqual(delivered, [1, 2, 4]);
    send(batchOf(5, withPattern));
    assert.deepEqual(delivered, [1, 2, 4, 5], 'loaded once, then at once');
    assert.equal(loads.length, 1);
  });

  it('answers after a failed load (the engine fails what needs re2js) and tries again for the next pattern', async () => {
    const { delivered, loads, send } = harness();
    send(batchOf(1, withPattern));
    send(batchOf(2, withPattern));
    assert.equal(loads.length, 1);
    loads[0]?.reject(new Error('offline'));
    await turn();
    assert.deepEqual(delivered, [1, 2]);
    send(batchOf(3, plain));
    assert.deepEqual(delivered, [1, 2, 3]);
    send(batchOf(4, withPattern));
    assert.equal(loads.length, 2, 'a new attempt');
    assert.deepEqual(delivered, [1, 2, 3]);
    loads[1]?.resolve();
    await turn();
    assert.deepEqual(delivered, [1, 2, 3, 4]);
  });
});
