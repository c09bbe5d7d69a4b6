// The host's reply poll (src/host/reply-poll.ts): after posting quick requests it takes the replies off its end of
// the lane for a short window instead of sleeping until they wake it, backs off when that does not pay, and the
// real worker client settles every call the same way through it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createValidator, type SpawnWorker, spawnNodeWorker } from '../../src/host/node.ts';
import { createReplyPoll, firstBackoffMs, maxBackoffMs } from '../../src/host/reply-poll.ts';
import { batchSize, getRequest, type LaneBatch } from '../../src/wire/index.ts';

/** A lane the test fills by hand; each poll costs `tick` ms (plus a one-off `jump`) on the test's clock. */
function fakeLane(tick: number) {
  const time = { now: 0 };
  const queue: unknown[] = [];
  const handled: unknown[] = [];
  const polls = { count: 0, jump: 0 };
  const take = (): boolean => {
    polls.count++;
    time.now += tick + polls.jump;
    polls.jump = 0;
    if (queue.length === 0) return false;
    handled.push(queue.shift());
    return true;
  };
  return { time, queue, handled, polls, take, clock: () => time.now };
}

describe('the host reply poll', () => {
  it('takes queued replies until the calls are answered, then stops', () => {
    const lane = fakeLane(0.001);
    const poll = createReplyPoll(0.05, lane.take, lane.clock);
    lane.queue.push('progress', 'reply', 'next');
    poll(() => lane.handled.includes('reply'));
    assert.deepEqual(lane.handled, ['progress', 'reply']);
    assert.equal(lane.polls.count, 2);
  });

  it('does not poll with a window of 0', () => {
    const lane = fakeLane(0.001);
    lane.queue.push('reply');
    createReplyPoll(0, lane.take, lane.clock)(() => lane.handled.length > 0);
    assert.equal(lane.polls.count, 0);
  });

  it('gives up when the window runs out, even while messages keep coming', () => {
    const lane = fakeLane(0.01);
    const poll = createReplyPoll(0.05, lane.take, lane.clock);
    for (let i = 0; i < 100; i++) lane.queue.push(i);
    poll(() => false);
    assert.ok(lane.polls.count >= 5 && lane.polls.count <= 7, `${lane.polls.count} polls`);
  });

  it('stays off for a back-off after a window that did not pay, doubling while it recurs, reset by one that does', () => {
    const lane = fakeLane(0.001);
    const poll = createReplyPoll(0.05, lane.take, lane.clock);
    const run = (done: () => boolean): number => {
      lane.polls.count = 0;
      poll(done);
      return lane.polls.count;
    };
    assert.ok(run(() => false) >= 50, 'the first window is polled out');
    assert.equal(
      run(() => false),
      0,
      `off for ${firstBackoffMs} ms`,
    );
    lane.time.now += firstBackoffMs;
    assert.ok(run(() => false) > 0, 'on again, and out again: the next back-off is twice as long');
    lane.time.now += firstBackoffMs;
    assert.equal(
      run(() => false),
      0,
      'still off',
    );
    lane.time.now += firstBackoffMs;
    lane.queue.push('reply');
    assert.equal(
      run(() => lane.handled.length > 0),
      1,
      'a window that pays',
    );
    assert.ok(run(() => false) > 0, 'and the back-off starts over');
    lane.time.now += firstBackoffMs;
    assert.ok(run(() => false) > 0, `after one more miss it is off for ${firstBackoffMs} ms only`);
  });

  it('stops at an empty poll that finds the thread preempted, and the back-off never passes its cap', () => {
    const lane = fakeLane(0.001);
    const poll = createReplyPoll(0.05, lane.take, lane.clock);
    lane.polls.jump = 3;
    poll(() => false);
    assert.equal(lane.polls.count, 1, 'preempted for 3 ms: polling stops there');
    for (let i = 0; i < 20; i++) {
      lane.time.now += maxBackoffMs;
      poll(() => false);
    }
    lane.polls.count = 0;
    lane.time.now += maxBackoffMs;
    poll(() => false);
    assert.ok(lane.polls.count > 0, `on again after at most ${maxBackoffMs} ms`);
  });
});

/**
 * Wraps each started worker's lane so every reply poll runs until its calls are answered (in this thread, without
 * the event loop: only the poll can deliver them), and records what it waited for.
 */
function pollingUntilAnswered(spawn: SpawnWorker, seen: { ops: string[]; answered: boolean }[]): SpawnWorker {
  return onLanes(spawn, (lane) => {
    const awaitReplies = lane.port.awaitReplies;
    assert.ok(awaitReplies !== undefined, 'the Node lane polls for replies');
    let ops: string[] = [];
    const post = lane.port.postMessage.bind(lane.port);
    lane.port.postMessage = (message: unknown) => {
      const batch = message as LaneBatch;
      ops = Array.from({ length: batchSize(batch) }, (_, i) => getRequest(batch, i).op);
      post(message);
    };
    lane.port.awaitReplies = (done) => {
      const until = Date.now() + 10_000;
      while (!done() && Date.now() < until) awaitReplies(done);
      seen.push({ ops, answered: done() });
    };
  });
}

/** Hands each started worker's lane to `inspect` (which may wrap its port) before the client uses it. */
function onLanes(spawn: SpawnWorker, inspect: (lane: ReturnType<ReturnType<SpawnWorker>['lane']>) => void): SpawnWorker {
  return () => {
    const handle = spawn();
    return {
      ...handle,
      lane: (onMessage) => {
        const lane = handle.lane(onMessage);
        inspect(lane);
        return lane;
      },
    };
  };
}

describe('the worker client polling a real worker', () => {
  it('settles quick calls from the poll alone, and never polls after a compile', async () => {
    const seen: { ops: string[]; answered: boolean }[] = [];
    const validator = createValidator({ spawn: pollingUntilAnswered(spawnNodeWorker(), seen) });
    try {
      const tool = { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: 10 } } } };
      const [verdict] = await validator.compileTools([tool]);
      assert.ok(verdict !== undefined && verdict.status === 'accepted');
      assert.deepEqual(await validator.validateArguments(verdict.fingerprint, { n: 3 }), { status: 'valid' });
      const invalid = await validator.validateArguments(verdict.fingerprint, { n: 11 });
      assert.equal(invalid.status, 'invalid');
      const both = await Promise.all([
        validator.validateArguments(verdict.fingerprint, { n: 1 }),
        validator.validateArguments(verdict.fingerprint, { n: 'one' }),
      ]);
      assert.deepEqual(
        both.map((outcome) => outcome.status),
        ['valid', 'invalid'],
      );
      // A schema sent as an object compiles first: not a quick call, so the host sleeps until its answer.
      assert.deepEqual(await validator.validate({ type: 'string' }, 'x'), { status: 'valid' });
      assert.deepEqual(seen, [
        { ops: ['validateArguments'], answered: true },
        { ops: ['validateArguments'], answered: true },
        { ops: ['validateArguments', 'validateArguments'], answered: true },
      ]);
    } finally {
      await validator.close();
    }
  });

  it('does not poll when the spawn turns it off', async () => {
    const validator = createValidator({ spawn: hasPoll(spawnNodeWorker({ replyPollMicros: 0 })) });
    try {
      const [verdict] = await validator.compileTools([{ name: 't', inputSchema: { type: 'object' } }]);
      assert.ok(verdict !== undefined);
      assert.deepEqual(await validator.validateArguments(verdict.fingerprint, {}), { status: 'valid' });
    } finally {
      await validator.close();
    }
  });
});

/** Fails if a started worker's lane offers a reply poll. */
function hasPoll(spawn: SpawnWorker): SpawnWorker {
  return onLanes(spawn, (lane) => assert.equal(lane.port.awaitReplies, undefined));
}
