// The Node worker's idle spin (src/worker/spin-lane.ts): after an answer it takes queued messages off the lane for a
// short window, only while idle, and the real worker answers the same with the spin on or off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessagePort } from 'node:worker_threads';
import { createValidator, spawnNodeWorker } from '../src/host/node.ts';
import { idleSpinMs, listenWithSpin } from '../src/worker/spin-lane.ts';

/** A lane whose 'message' event the test fires by hand, with a queue `receive` takes from, and a clock it moves. */
function fakeLane(queue: unknown[], clock: { now: number }, tick: number) {
  let handler: (data: unknown) => void = () => assert.fail('not listening');
  const port = { on: (_event: string, listener: (data: unknown) => void) => (handler = listener) } as unknown as MessagePort;
  const polls = { count: 0 };
  const receive = () => {
    polls.count++;
    clock.now += tick;
    return queue.length > 0 ? { message: queue.shift() } : undefined;
  };
  return { port, receive, polls, fire: (data: unknown) => handler(data) };
}

describe('the idle spin', () => {
  it('serves messages queued during the window, restarting it with each, then stops polling', () => {
    const clock = { now: 0 };
    const queue: unknown[] = ['b', 'c'];
    const lane = fakeLane(queue, clock, 0.01);
    const seen: unknown[] = [];
    listenWithSpin(
      0.05,
      lane.receive,
      () => clock.now,
    )(lane.port as never, (data) => {
      seen.push(data);
      return true;
    });
    lane.fire('a');
    assert.deepEqual(seen, ['a', 'b', 'c']);
    // After 'c' the window (0.05 ms) runs out on empty polls of 0.01 ms each: five or six of them, never endless.
    assert.ok(lane.polls.count >= 2 + 5 && lane.polls.count <= 2 + 7, `${lane.polls.count} polls`);
  });

  it('does not poll while a batch waits on a promise, nor with a window of 0', () => {
    for (const [spinMs, idle] of [
      [0.05, false],
      [0, true],
    ] as const) {
      const clock = { now: 0 };
      const lane = fakeLane(['queued'], clock, 0.01);
      const seen: unknown[] = [];
      listenWithSpin(
        spinMs,
        lane.receive,
        () => clock.now,
      )(lane.port as never, (data) => {
        seen.push(data);
        return idle;
      });
      lane.fire('a');
      assert.deepEqual(seen, ['a']);
      assert.equal(lane.polls.count, 0);
    }
  });

  it('stops at once when a message it took leaves the worker busy', () => {
    const clock = { now: 0 };
    const lane = fakeLane(['compile', 'later'], clock, 0.01);
    const seen: unknown[] = [];
    listenWithSpin(
      0.05,
      lane.receive,
      () => clock.now,
    )(lane.port as never, (data) => {
      seen.push(data);
      return data !== 'compile';
    });
    lane.fire('a');
    assert.deepEqual(seen, ['a', 'compile']);
    assert.equal(lane.polls.count, 1);
  });

  it('stops polling when a poll finds the thread was preempted, and stays off for a doubling back-off', () => {
    const clock = { now: 0 };
    const queue: unknown[] = [];
    let jump = 0;
    let polls = 0;
    let handler: (data: unknown) => void = () => assert.fail('not listening');
    const port = { on: (_event: string, listener: (data: unknown) => void) => (handler = listener) } as unknown as MessagePort;
    const receive = () => {
      polls++;
      clock.now += 0.001 + jump;
      jump = 0;
      return queue.length > 0 ? { message: queue.shift() } : undefined;
    };
    listenWithSpin(0.05, receive, () => clock.now)(port as never, () => true);
    // A clean spin: about 50 polls of 1 µs each, then back to sleep.
    handler('a');
    assert.ok(polls >= 45 && polls <= 55, `${polls} polls`);
    // The thread loses its core for 3 ms during a poll: polling stops there.
    polls = 0;
    jump = 3;
    handler('b');
    assert.equal(polls, 1);
    // Off for 50 ms: a message 10 ms later is served without polling.
    polls = 0;
    clock.now += 10;
    handler('c');
    assert.equal(polls, 0);
    // After the back-off it polls again; preempted again, the next back-off is 100 ms.
    clock.now += 50;
    jump = 3;
    handler('d');
    assert.equal(polls, 1);
    polls = 0;
    clock.now += 60;
    handler('e');
    assert.equal(polls, 0, 'still off 60 ms later');
    clock.now += 50;
    handler('f');
    assert.ok(polls >= 45, 'polling again after 110 ms');
  });

  it('reads the window from workerData in microseconds, capped at 1 ms; anything else turns it off', () => {
    assert.equal(idleSpinMs({ idleSpinMicros: 50 }), 0.05);
    assert.equal(idleSpinMs({ idleSpinMicros: 1e9 }), 1);
    for (const data of [undefined, null, {}, { idleSpinMicros: -1 }, { idleSpinMicros: Number.NaN }, { idleSpinMicros: '50' }])
      assert.equal(idleSpinMs(data), 0);
  });

  for (const idleSpinMicros of [0, 1000]) {
    it(`gives the same answers in a real worker with a ${idleSpinMicros} µs window, compiles mixed in`, async () => {
      const validator = createValidator({ spawn: spawnNodeWorker({ idleSpinMicros }) });
      try {
        const tool = (i: number) => ({
          name: `t${i}`,
          inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: i } } },
        });
        const [first] = await validator.compileTools([tool(5)]);
        assert.ok(first?.verdict === 'accepted');
        for (let i = 0; i < 300; i++) {
          // Every tenth call compiles a new tool in the same tick: a batch that may wait on a promise mid-spin.
          const compiled = i % 10 === 0 ? validator.compileTools([tool(100 + i)]) : undefined;
          const verdict = await validator.validateArguments(first.fingerprint, { n: i % 7 });
          assert.equal('valid' in verdict && verdict.valid, i % 7 <= 5, `call ${i}`);
          if (compiled !== undefined) assert.equal((await compiled)[0]?.verdict, 'accepted');
        }
      } finally {
        await validator.close();
      }
    });
  }
});
