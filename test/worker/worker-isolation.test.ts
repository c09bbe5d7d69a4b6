// The engine in real worker_threads: time budgets and whom a timeout blames, crashes, batching, recovery.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { parseJson } from '../../src/engine/index.ts';
import { createValidator, type SpawnWorker, spawnNodeWorker, type Validator, type ValidatorError } from '../../src/host/node.ts';
import { timeoutsInARow } from '../../src/host/too-slow.ts';
import type { ValidationOutcome } from '../../src/protocol/index.ts';
import { bigTool, manyRows, roomyPolicy, rowsSchema, rowsTool } from '../helpers/slow-work.ts';

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

  it('validates in a worker thread with the engine verdicts', async () => {
    const [verdict] = await validator.compileTools([tool]);
    assert.equal(verdict?.status, 'accepted');
    assert.deepEqual(await validator.validateArguments(verdict?.fingerprint ?? '', { n: 11 }), {
      status: 'invalid',
      issues: [{ path: '$.n', keyword: 'maximum', message: 'got 11, want at most 10' }],
    });
    assert.equal(workers.length, 1);
  });

  it('resolves 10,000 concurrent calls with the right verdicts', async () => {
    const [verdict] = await validator.compileTools([tool]);
    const fingerprint = verdict?.fingerprint ?? '';
    const outcomes = await Promise.all(Array.from({ length: 10_000 }, (_, i) => validator.validateArguments(fingerprint, { n: i % 20 })));
    outcomes.forEach((outcome, i) => {
      assert.equal(outcome.status === 'valid', i % 20 <= 10, `call ${i}`);
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
      assert.equal(outcomes.filter((o) => o.status === 'valid').length, 500);
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

/** The outcome of a call as one comparable value: whether it is valid, the refusal code, or the error code. */
function summary(call: Promise<ValidationOutcome>): Promise<unknown> {
  return call.then(
    (outcome) => (outcome.status === 'refused' ? outcome.refusal.code : outcome.status === 'valid'),
    (error: ValidatorError) => error.code,
  );
}

describe('a validation past its budget (the instance may be to blame)', () => {
  const workers: Worker[] = [];
  // 100 ms: a few rows validate in well under a millisecond; 100,000 rows take seconds. A call that sends a schema
  // object has the compile budget on top (600 ms in all here).
  const validator = createValidator({
    timeBudgetMs: 100,
    compileBudgetMs: 500,
    policy: roomyPolicy,
    spawn: spawnNodeWorker({ onSpawn: (worker) => workers.push(worker) }),
  });
  after(() => validator.close());
  const few = { rows: [{ a: 'x', b: 1 }] };
  let fingerprint = '';

  it('fails that call with TIMEOUT; the next call on the same tool is answered by a fresh worker', async () => {
    const [verdict] = await validator.compileTools([rowsTool]);
    assert.equal(verdict?.status, 'accepted');
    fingerprint = verdict?.fingerprint ?? '';
    assert.equal(workers.length, 1);
    assert.equal(await summary(validator.validateArguments(fingerprint, { rows: manyRows() })), 'TIMEOUT');
    // The fresh worker has never seen the tool: it is taught again on demand, then validates.
    assert.deepEqual(await validator.validateArguments(fingerprint, few), { status: 'valid' });
    assert.deepEqual(await validator.validateArguments(fingerprint, { rows: [{ a: 1 }] }), {
      status: 'invalid',
      issues: [
        { path: '$.rows[0]', keyword: 'required', message: 'missing required property "b"' },
        { path: '$.rows[0].a', keyword: 'type', message: 'got integer, want string' },
      ],
    });
    assert.equal(workers.length, 2, 'one restart');
  });

  it('does not refuse the tool: it stays accepted when compiled again', async () => {
    const [verdict] = await validator.compileTools([rowsTool]);
    assert.equal(verdict?.status, 'accepted');
    assert.equal(verdict?.fingerprint, fingerprint);
  });

  it('answers the innocent calls that shared a batch with the timed-out one', async () => {
    const calls = [
      validator.validate({ type: 'integer' }, 1),
      validator.validateArguments(fingerprint, few),
      validator.validateArguments(fingerprint, { rows: manyRows() }),
      validator.validate({ type: 'integer' }, 'two'),
      validator.validate({ minimum: 3 }, 4),
    ];
    assert.deepEqual(await Promise.all(calls.map(summary)), [true, true, 'TIMEOUT', false, true]);
    assert.equal(workers.length, 3);
  });

  it(`refuses the tool (too_slow) after ${timeoutsInARow} timeouts in a row; a finished validation in between starts the count over`, async () => {
    // The batch above ended with a finished validation of this tool, so its count is at 0.
    assert.equal(timeoutsInARow, 3);
    assert.equal(await summary(validator.validateArguments(fingerprint, { rows: manyRows() })), 'TIMEOUT');
    assert.equal(await summary(validator.validateArguments(fingerprint, { rows: manyRows() })), 'TIMEOUT');
    // Two timeouts since the last success: without the start-over, the one before the batch would make it three.
    const [still] = await validator.compileTools([rowsTool]);
    assert.equal(still?.status, 'accepted');
    assert.equal(await summary(validator.validateArguments(fingerprint, { rows: manyRows() })), 'TIMEOUT');
    const spawned = workers.length;
    const outcome = await validator.validateArguments(fingerprint, few);
    assert.ok(outcome.status === 'refused' && outcome.refusal.code === 'too_slow', JSON.stringify(outcome));
    assert.match(outcome.refusal.message, /3 times in a row/);
    assert.equal(workers.length, spawned, 'answered without a worker');
    const [refused] = await validator.compileTools([rowsTool]);
    assert.equal(refused?.status, 'refused');
    assert.equal(refused?.input?.status === 'refused' && refused.input.refusal.code, 'too_slow');
  });

  it('counts a schema object the same way: one timeout fails one call, the schema still validates', async () => {
    const schema = { type: 'array', items: rowsSchema.items, maxItems: 1_000_000 };
    // This call has the compile budget on top (600 ms in all), so four times the rows of the others.
    assert.equal(await summary(validator.validate(schema, manyRows(400_000))), 'TIMEOUT');
    assert.deepEqual(await validator.validate(schema, [{ a: 'x', b: 2 }]), { status: 'valid' });
  });
});

describe('compile budgets are per tool', () => {
  const workers: Worker[] = [];
  /** Compiles `tools` alone on `validator`, returning how long it took (ms). */
  const timed = async (validator: Validator, tools: unknown[]): Promise<number> => {
    const started = performance.now();
    const verdicts = await validator.compileTools(tools);
    assert.ok(verdicts.every((verdict) => verdict.status === 'accepted'));
    return performance.now() - started;
  };
  // Sized on this machine: one ~220 KB tool's warm compile time sets the budget (at least 500 ms, five such
  // compiles), and the page holds enough tools to need three budgets in all.
  let budget = 0;
  let pageSize = 0;
  // The hostile tool: enough resource kinds that its compile takes several budgets however fast compiling gets.
  let hostileKinds = 3000;
  let validator: Validator | undefined;
  after(() => validator?.close());

  it('compiles a page that needs several compile budgets in all, each tool within its own, without TIMEOUT', async () => {
    const probe = createValidator({ timeBudgetMs: 100, compileBudgetMs: 30_000 });
    let one: number;
    try {
      await timed(probe, [bigTool('probe-a')]);
      one = await timed(probe, [bigTool('probe-b')]);
    } finally {
      await probe.close();
    }
    budget = Math.max(500, Math.ceil(5 * one));
    pageSize = Math.min(60, Math.ceil((3 * budget) / one));
    hostileKinds = Math.min(20_000, Math.max(3000, Math.ceil((105 * 6 * budget) / one)));
    validator = createValidator({
      timeBudgetMs: 100,
      compileBudgetMs: budget,
      policy: roomyPolicy,
      spawn: spawnNodeWorker({ onSpawn: (worker) => workers.push(worker) }),
    });
    const page = Array.from({ length: pageSize }, (_, i) => bigTool(`page-${i}`));
    const elapsed = await timed(validator, page);
    // The point of the test: one budget for the page would have run out.
    assert.ok(elapsed > budget, `the page took ${elapsed.toFixed(0)} ms, under one ${budget} ms budget: make it bigger`);
    assert.equal(workers.length, 1, 'no restart');
  });

  it('refuses only the tool whose compile overruns its budget (too_slow); the others get their verdicts', async () => {
    assert.ok(validator !== undefined);
    const before = workers.length;
    // ~6 MB or more (3,000+ resource kinds): seconds to compile, admitted only because the test's policy is roomy.
    const hostile = bigTool('hostile', hostileKinds);
    const page = [
      ...Array.from({ length: 4 }, (_, i) => bigTool(`before-${i}`)),
      hostile,
      ...Array.from({ length: 4 }, (_, i) => bigTool(`after-${i}`)),
      { name: 'count', inputSchema: { type: 'object', properties: { profile: { $ref: 'https://example.com/p.json' } } } },
    ];
    const verdicts = await validator.compileTools(page);
    assert.deepEqual(
      verdicts.map((verdict) => verdict.status),
      ['accepted', 'accepted', 'accepted', 'accepted', 'refused', 'accepted', 'accepted', 'accepted', 'accepted', 'refused'],
    );
    const slow = verdicts[4];
    assert.equal(slow?.name, 'apply_hostile');
    assert.match(slow?.fingerprint ?? '', /^[0-9a-f]{64}$/);
    assert.equal(slow?.input?.status === 'refused' && slow.input.refusal.code, 'too_slow');
    assert.equal(verdicts[9]?.input?.status === 'refused' && verdicts[9].input.refusal.code, 'remote_ref');
    assert.equal(workers.length, before + 1, 'one restart, for the hostile tool');

    // Listed again (new objects, same definitions): refused at once, without sending it to a worker again.
    const again = await validator.compileTools(structuredClone(page));
    assert.deepEqual(
      again.map((verdict) => verdict.status),
      verdicts.map((verdict) => verdict.status),
    );
    assert.equal(again[4]?.fingerprint, slow?.fingerprint);
    assert.equal(workers.length, before + 1, 'no further restart');
  });

  it('refuses a schema whose compile overruns its budget, from compile() too', async () => {
    assert.ok(validator !== undefined);
    const schema = bigTool('hostile-schema', hostileKinds).inputSchema;
    const info = await validator.compile(schema);
    assert.equal(info.status === 'refused' && info.refusal.code, 'too_slow');
    const outcome = await validator.validate(schema, {});
    assert.ok(outcome.status === 'refused' && outcome.refusal.code === 'too_slow');
    assert.deepEqual(
      await validator.compileTools([{ name: 'fine', inputSchema: { type: 'object' } }]).then((v) => v[0]?.status),
      'accepted',
    );
  });

  it('numbers malformed entries by their place in the list, as the engine does', async () => {
    assert.ok(validator !== undefined);
    const verdicts = await validator.compileTools([{ name: 'ok', inputSchema: { type: 'object' } }, 42, { inputSchema: {} }]);
    assert.deepEqual(
      verdicts.map((verdict) => [verdict.name, verdict.status, verdict.input?.status === 'refused' ? verdict.input.refusal.message : null]),
      [
        ['ok', 'accepted', null],
        ['tools[1]', 'refused', 'tools[1] is not a tool: want an object with a string "name"'],
        ['tools[2]', 'refused', 'tools[2] is not a tool: want an object with a string "name"'],
      ],
    );
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
        status: 'invalid',
        issues: [{ path: '$', keyword: 'maximum', message: 'got 9007199254740993, want at most 9007199254740992' }],
      });
      assert.deepEqual(await validator.validate(schema.value as object, 9007199254740992n), { status: 'valid' });
      assert.equal((await validator.validateJson({ const: 9007199254740992 }, '9007199254740993')).status, 'invalid');
    } finally {
      await validator.close();
    }
  });
});

describe('a crashed worker', () => {
  it('rejects every pending call with WORKER_CRASHED, and the next call works on a fresh worker', async () => {
    const workers: Worker[] = [];
    const validator = createValidator({
      timeBudgetMs: 30_000,
      policy: roomyPolicy,
      spawn: spawnNodeWorker({ onSpawn: (worker) => workers.push(worker) }),
    });
    try {
      await validator.validate({ type: 'string' }, 'warm up');
      // Seconds of legitimate work, so the worker is still busy with it when it is terminated.
      const pending = [
        validator.validate(rowsSchema, manyRows()),
        validator.validate({ type: 'string' }, 'x'),
        validator.compile({ type: 'null' }),
      ];
      setTimeout(() => void workers[0]?.terminate(), 100);
      assert.deepEqual(await Promise.all(pending.map(codeOf)), ['WORKER_CRASHED', 'WORKER_CRASHED', 'WORKER_CRASHED']);
      assert.deepEqual(await validator.validate({ type: 'string' }, 1), {
        status: 'invalid',
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
    assert.deepEqual(await validator.validate({ type: 'string' }, 'x'), { status: 'valid' });
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
