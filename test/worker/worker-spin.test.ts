// The Node worker's idle spin (src/worker/spin-lane.ts): after an answer it takes queued messages off the lane for a
// short window, only while waking up is slow, and the real worker answers the same either way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessagePort } from 'node:worker_threads';
import { createValidator, spawnNodeWorker } from '../../src/host/node.ts';
import { idleSpinMs, listenWithSpin, probeEvery, slowWakeMicros } from '../../src/worker/spin-lane.ts';

/** A clock the test moves: `now` in ms; epoch microseconds follow it. */
function testClock() {
  const time = { now: 0 };
  return { time, clock: { now: () => time.now, epochMicros: () => 1e15 + time.now * 1000 } };
}

/** A lane whose 'message' event the test fires by hand, with a queue `receive` takes from; each poll costs `tick` ms. */
function fakeLane(queue: unknown[], time: { now: number }, tick: number) {
  let handler: (data: unknown) => void = () => assert.fail('not listening');
  const port = { on: (_event: string, listener: (data: unknown) => void) => (handler = listener) } as unknown as MessagePort;
  const polls = { count: 0, jump: 0 };
  const receive = () => {
    polls.count++;
    time.now += tick + polls.jump;
    polls.jump = 0;
    return queue.length > 0 ? { message: queue.shift() } : undefined;
  };
  return { port, receive, polls, fire: (data: unknown) => handler(data) };
}

/** No stamp in shared memory: nothing measured, so polling stays on. */
const noStamp = () => undefined;

describe('the idle spin', () => {
  it('serves messages queued during the window, restarting it with each, then stops polling', () => {
    const { time, clock } = testClock();
    const lane = fakeLane(['b', 'c'], time, 0.01);
    const seen: unknown[] = [];
    const onMessage = (data: unknown) => seen.push(data);
    listenWithSpin(0.05, lane.receive, clock)(lane.port as never, onMessage, noStamp);
    lane.fire('a');
    assert.deepEqual(seen, ['a', 'b', 'c']);
    // After 'c' the window (0.05 ms) runs out on empty polls of 0.01 ms each: five or six of them, never endless.
    assert.ok(lane.polls.count >= 2 + 5 && lane.polls.count <= 2 + 7, `${lane.polls.count} polls`);
  });

  it('does not poll with a window of 0', () => {
    const { time, clock } = testClock();
    const lane = fakeLane(['queued'], time, 0.01);
    const seen: unknown[] = [];
    listenWithSpin(0, lane.receive, clock)(lane.port as never, (data) => seen.push(data), noStamp);
    lane.fire('a');
    assert.deepEqual(seen, ['a']);
    assert.equal(lane.polls.count, 0);
  });

  it('polls only after a slow delivery, and lets one message in probeEvery come through the event loop', () => {
    const { time, clock } = testClock();
    const queue: unknown[] = [];
    const lane = fakeLane(queue, time, 0.001);
    let posted = 0;
    listenWithSpin(0.05, lane.receive, clock)(
      lane.port as never,
      () => {},
      () => posted,
    );
    // Delivered 10 µs after the host posted it: waking is cheap, no polling.
    posted = clock.epochMicros() - 10;
    lane.fire('fast');
    assert.equal(lane.polls.count, 0);
    // Delivered slowly: polling, which serves what is queued, at most probeEvery in a row.
    posted = clock.epochMicros() - slowWakeMicros;
    for (let i = 0; i < 2 * probeEvery; i++) queue.push(i);
    lane.fire('slow');
    assert.equal(queue.length, 2 * probeEvery - probeEvery, 'stopped after probeEvery served messages');
  });

  it('stops polling when a poll finds the thread was preempted, and stays off for a doubling back-off', () => {
    const { time, clock } = testClock();
    const lane = fakeLane([], time, 0.001);
    listenWithSpin(0.05, lane.receive, clock)(lane.port as never, () => {}, noStamp);
    const fire = (jump: number) => {
      lane.polls.count = 0;
      lane.polls.jump = jump;
      lane.fire('m');
      return lane.polls.count;
    };
    const clean = fire(0);
    assert.ok(clean >= 45 && clean <= 55, `${clean} polls`);
    assert.equal(fire(3), 1, 'preempted for 3 ms: polling stops there');
    time.now += 10;
    assert.equal(fire(0), 0, 'off for 50 ms');
    time.now += 50;
    assert.equal(fire(3), 1, 'on again, preempted again: the next back-off is 100 ms');
    time.now += 60;
    assert.equal(fire(0), 0, 'still off 60 ms later');
    time.now += 50;
    assert.ok(fire(0) >= 45, 'polling again after 110 ms');
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
        assert.ok(first?.status === 'accepted');
        for (let i = 0; i < 300; i++) {
          // Every tenth call compiles a new tool in the same tick: a batch that may wait on a promise mid-spin.
          const compiled = i % 10 === 0 ? validator.compileTools([tool(100 + i)]) : undefined;
          const verdict = await validator.validateArguments(first.fingerprint, { n: i % 7 });
          assert.equal(verdict.status === 'valid', i % 7 <= 5, `call ${i}`);
          if (compiled !== undefined) assert.equal((await compiled)[0]?.status, 'accepted');
        }
      } finally {
        await validator.close();
      }
    });
  }
});
