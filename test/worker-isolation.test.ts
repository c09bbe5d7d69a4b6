// The engine in real worker_threads: time budget, crashes, batching, recovery.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { parseJson } from '../src/engine/index.ts';
import { createValidator, type SpawnWorker, spawnNodeWorker, type Validator, type ValidatorError } from '../src/host/node.ts';

const redos = { type: 'string', pattern: '^(a+)+$' };
const evil = `${'a'.repeat(32)}!`;
const tool = { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: 10 } }, required: ['n'] } };

/** Runs a promise expected to reject, returning the error's code. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as ValidatorError).code;
  }
  return 'resolved';
}

describe('worker mode', () => {
  const workers: Worker[] = [];
  const validator: Validator = createValidator({ spawn: spawnNodeWorker({ onSpawn: (worker) => workers.push(worker) }) });
  after(() => validator.close());
  let toolFingerprint = '';

  it('validates in a worker thread with the engine verdicts', async () => {
    const [verdict] = await validator.compileTools([tool]);
    assert.equal(verdict?.verdict, 'accepted');
    toolFingerprint = verdict?.fingerprint ?? '';
    assert.deepEqual(await validator.validateArguments(verdict?.fingerprint ?? '', { n: 11 }), {
      valid: false,
      issues: [{ path: '$.n', keyword: 'maximum', message: 'got 11, want at most 10' }],
    });
    assert.equal(workers.length, 1);
  });

  it('times out a catastrophic regex, restarts the worker, and answers the next call', async () => {
    const started = performance.now();
    assert.equal(await codeOf(validator.validate(redos, evil)), 'TIMEOUT');
    // Evaluated in full, this regex runs for about a minute; the budget ends it long before.
    assert.ok(performance.now() - started < 20_000);
    assert.deepEqual(await validator.validate({ type: 'string' }, 'fine'), { valid: true });
    assert.equal(workers.length, 2, 'a fresh worker answered');
  });

  it('answers the innocent calls that shared a batch with a timed-out one', async () => {
    const slow = { type: 'string', pattern: '^(b+)+$' };
    const calls = [
      validator.validate({ type: 'integer' }, 1),
      validator.validate(slow, `${'b'.repeat(32)}!`),
      validator.validate({ type: 'integer' }, 'two'),
      validator.validate({ minimum: 3 }, 4),
    ];
    assert.deepEqual(
      await Promise.all(
        calls.map((call) =>
          call.then(
            (o) => ('valid' in o ? o.valid : o),
            (e: ValidatorError) => e.code,
          ),
        ),
      ),
      [true, 'TIMEOUT', false, true],
    );
  });

  it('remembers the slow schema as refused (too_slow) and fails fast without a call', async () => {
    const outcome = await validator.validate(redos, evil);
    assert.ok('refused' in outcome && outcome.refused.code === 'too_slow');
    assert.equal(workers.length, 3, 'no new worker was needed');
  });

  it('re-teaches a fresh worker the tools it knew before the restart', async () => {
    // The tool was compiled by the first worker only; the current one learns it on demand.
    assert.equal(workers.length, 3);
    assert.deepEqual(await validator.validateArguments(toolFingerprint, { n: 3 }), { valid: true });
    assert.deepEqual(await validator.stats().then((s) => s.cachedTools), 1);
  });

  it('resolves 10,000 concurrent calls with the right verdicts', async () => {
    const [verdict] = await validator.compileTools([tool]);
    const fingerprint = verdict?.fingerprint ?? '';
    const outcomes = await Promise.all(Array.from({ length: 10_000 }, (_, i) => validator.validateArguments(fingerprint, { n: i % 20 })));
    outcomes.forEach((outcome, i) => {
      assert.equal('valid' in outcome && outcome.valid, i % 20 <= 10, `call ${i}`);
    });
  });

  it('sends calls issued together in few messages, on the data lane', async () => {
    const lane = { sent: 0, received: 0 };
    let comlink = 0;
    const counted = createValidator({
      spawn: countingLane(
        spawnNodeWorker({
          onSpawn: (worker) => {
            const post = worker.postMessage.bind(worker);
            worker.postMessage = (...args: Parameters<Worker['postMessage']>) => {
              comlink++;
              return post(...args);
            };
          },
        }),
        lane,
      ),
    });
    try {
      await counted.validate({ type: 'integer' }, 0);
      const before = { ...lane, comlink };
      const outcomes = await Promise.all(Array.from({ length: 1000 }, (_, i) => counted.validate({ type: 'integer' }, i % 2 ? i : 'x')));
      assert.equal(outcomes.filter((o) => 'valid' in o && o.valid).length, 500);
      const sent = lane.sent - before.sent;
      assert.ok(sent > 0 && sent <= 8, `${sent} messages for 1000 calls`);
      // Progress goes through shared memory: one answer per batch comes back, nothing else.
      assert.equal(lane.received - before.received, sent);
      assert.equal(comlink, before.comlink, 'Comlink carried init only');
    } finally {
      await counted.close();
    }
  });
});

/** Counts the messages each way on the data lane of every worker `spawn` starts. */
function countingLane(spawn: SpawnWorker, counts: { sent: number; received: number }): SpawnWorker {
  return () => {
    const handle = spawn();
    return {
      ...handle,
      lane: (onMessage) => {
        const lane = handle.lane((data) => {
          counts.received++;
          onMessage(data);
        });
        const post = lane.port.postMessage.bind(lane.port);
        lane.port.postMessage = (message: unknown) => {
          counts.sent++;
          post(message);
        };
        return lane;
      },
    };
  };
}

describe('exact numbers across the worker boundary', () => {
  it('keeps lossless-json numbers and bigints exact in schemas and instances', async () => {
    const validator = createValidator();
    try {
      const schema = parseJson('{"maximum": 9007199254740992}', { maxBytes: 1000, maxDepth: 5 });
      const big = parseJson('9007199254740993', { maxBytes: 1000, maxDepth: 5 });
      assert.ok(schema.ok && big.ok);
      const outcome = await validator.validate(schema.value as object, big.value);
      assert.deepEqual(outcome, {
        valid: false,
        issues: [{ path: '$', keyword: 'maximum', message: 'got 9007199254740993, want at most 9007199254740992' }],
      });
      assert.deepEqual(await validator.validate(schema.value as object, 9007199254740992n), { valid: true });
      assert.equal(((await validator.validateJson({ const: 9007199254740992 }, '9007199254740993')) as { valid: boolean }).valid, false);
    } finally {
      await validator.close();
    }
  });
});

describe('a crashed worker', () => {
  it('rejects every pending call with WORKER_CRASHED, and the next call works on a fresh worker', async () => {
    const workers: Worker[] = [];
    const validator = createValidator({ timeBudgetMs: 30_000, spawn: spawnNodeWorker({ onSpawn: (worker) => workers.push(worker) }) });
    try {
      await validator.validate({ type: 'string' }, 'warm up');
      const pending = [validator.validate(redos, evil), validator.validate({ type: 'string' }, 'x'), validator.compile({ type: 'null' })];
      setTimeout(() => void workers[0]?.terminate(), 100);
      assert.deepEqual(await Promise.all(pending.map(codeOf)), ['WORKER_CRASHED', 'WORKER_CRASHED', 'WORKER_CRASHED']);
      assert.deepEqual(await validator.validate({ type: 'string' }, 1), {
        valid: false,
        issues: [{ path: '$', keyword: 'type', message: 'got integer, want string' }],
      });
      assert.equal(workers.length, 2);
    } finally {
      await validator.close();
    }
  });
});

describe('close()', () => {
  it('rejects pending and later calls with CLOSED', async () => {
    const validator = createValidator();
    const pending = validator.validate({ type: 'string' }, 'x');
    await validator.close();
    assert.equal(await codeOf(pending), 'CLOSED');
    assert.equal(await codeOf(validator.validate({ type: 'string' }, 'x')), 'CLOSED');
  });

  it('rejects calls in inline mode after close too', async () => {
    const validator = createValidator({ mode: 'inline' });
    assert.deepEqual(await validator.validate({ type: 'string' }, 'x'), { valid: true });
    await validator.close();
    assert.equal(await codeOf(validator.validate({ type: 'string' }, 'x')), 'CLOSED');
  });
});

describe('operational errors carry stable codes', () => {
  it('UNKNOWN_FINGERPRINT for a fingerprint nobody compiled, in both modes', async () => {
    for (const mode of ['worker', 'inline'] as const) {
      const validator = createValidator({ mode });
      try {
        assert.equal(await codeOf(validator.validateArguments('0'.repeat(64), {})), 'UNKNOWN_FINGERPRINT', mode);
        assert.equal(await codeOf(validator.validate('f'.repeat(64), 1)), 'UNKNOWN_FINGERPRINT', mode);
      } finally {
        await validator.close();
      }
    }
  });

  it('INVALID_ARGUMENT when compileTools is not given an array', async () => {
    for (const mode of ['worker', 'inline'] as const) {
      const validator = createValidator({ mode });
      try {
        assert.equal(await codeOf(validator.compileTools({} as unknown as unknown[])), 'INVALID_ARGUMENT', mode);
      } finally {
        await validator.close();
      }
    }
  });
});
