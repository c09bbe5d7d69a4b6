// The host–worker protocol: the data lane's compact batches, progress through shared memory or lane messages,
// batches answered before the next is read (the engine is synchronous), and the watchdog finding the stuck request either way.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LosslessNumber } from 'lossless-json';
import { createCfworkerAdapter, type EngineOptions, fingerprint, type SchemaValidatorAdapter } from '../../src/engine/index.ts';
import { encodeRequest } from '../../src/host/encode-request.ts';
import { createValidator, type SpawnWorker, spawnNodeWorker, type ValidatorError } from '../../src/host/node.ts';
import type { LanePort, WorkerRequest, WorkerResponse } from '../../src/protocol/validator-service.ts';
import {
  expandAnswer,
  getRequest,
  type LaneBatch,
  type LaneReply,
  packReply,
  putRequest,
  startBatch,
  unpackReply,
} from '../../src/wire/index.ts';
import { createWorkerApi } from '../../src/worker/create-worker-api.ts';
import { manyRows, roomyPolicy, rowsSchema } from '../helpers/slow-work.ts';

const tool = { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: 10 } } } };

/** A worker API in this thread on a fake lane: batches are delivered by hand, everything posted is kept. */
async function inThread(shared: boolean, options: EngineOptions = {}) {
  const posted: unknown[] = [];
  let deliver: (data: unknown) => void = () => assert.fail('not listening');
  const api = createWorkerApi(options, (_lane, onMessage) => {
    deliver = onMessage;
  });
  const lane: LanePort = { postMessage: (message) => posted.push(message) };
  const memory = shared ? new SharedArrayBuffer(8) : undefined;
  api.init(lane, { engine: {}, ...(memory === undefined ? {} : { progress: memory }) });
  const batch = (firstSeq: number, requests: readonly WorkerRequest[]): LaneBatch => {
    const message = startBatch(firstSeq);
    for (const request of requests) putRequest(message, request);
    return message;
  };
  const replies = (): { firstSeq: number; responses: WorkerResponse[] }[] =>
    posted
      .filter((message): message is LaneReply => Array.isArray(message))
      .map((reply) => {
        const responses: WorkerResponse[] = [];
        const sent = delivered.get(reply[0] as number);
        // As the host does: a valid outcome travels as `true` and is rebuilt from its request.
        unpackReply(reply, (i, response) =>
          responses.push(
            response.ok && sent !== undefined ? { ok: true, value: expandAnswer(getRequest(sent, i), response.value) } : response,
          ),
        );
        return { firstSeq: reply[0] as number, responses };
      });
  const stored = (): number | undefined => (memory === undefined ? undefined : Atomics.load(new Int32Array(memory), 0));
  const startedSlot = (): number | undefined => (memory === undefined ? undefined : Atomics.load(new Int32Array(memory), 1));
  const delivered = new Map<number, LaneBatch>();
  const send = (data: unknown): void => {
    if (Array.isArray(data)) delivered.set(data[0] as number, data);
    deliver(data);
  };
  return { api, posted, deliver: send, batch, replies, stored, startedSlot };
}

/** Waits (a macrotask at a time) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

describe('the data lane format', () => {
  it('packs requests flat and reads them back, with the lossless-encoded fields', () => {
    const requests: WorkerRequest[] = [
      { op: 'validateArguments', fingerprint: 'abc', instance: { n: 1 } },
      { op: 'validate', schema: '{"maximum":1}', instance: '2', encoded: ['schema', 'instance'] },
      { op: 'validateJson', schema: 'f', text: '[1]' },
      { op: 'compileTools', tools: '[]' as unknown as unknown[], encoded: ['tools'] },
      { op: 'validateElicitation', schema: {}, instance: '9', encoded: ['instance'] },
      { op: 'stats' },
      { op: 'compile', schema: { const: [1, 2n] } },
    ];
    const message = startBatch(7);
    for (const request of requests) putRequest(message, request);
    assert.equal(message[0], 7);
    assert.equal(message.length, 1 + 4 * requests.length);
    assert.deepEqual(
      requests.map((_, i) => getRequest(message, i)),
      requests,
    );
    // Nothing but the batch array itself and the payloads: no object per request.
    assert.deepEqual(structuredClone(message), message);
  });

  it('packs answers with failures marked by index', () => {
    const responses: WorkerResponse[] = [
      { ok: true, value: { status: 'valid' } },
      { ok: false, code: 'UNKNOWN_FINGERPRINT', message: 'no such tool' },
      { ok: true, value: null },
      { ok: false, code: 'INTERNAL', message: 'boom' },
    ];
    const reply = packReply(3, responses);
    assert.deepEqual(reply.slice(0, 2), [3, [1, 3]]);
    const back: WorkerResponse[] = [];
    unpackReply(reply, (i, response) => {
      assert.equal(i, back.length);
      back.push(response);
    });
    assert.deepEqual(back, responses);
    assert.equal(packReply(1, [{ ok: true, value: 1 }])[1], null);
  });

  it('sends valid outcomes as true and rebuilds them from the request, never touching other answers', () => {
    const issues = [{ path: '$.n', keyword: 'maximum', message: 'must be at most 10' }];
    const cases: [WorkerRequest, unknown][] = [
      [{ op: 'validateArguments', fingerprint: 'f', instance: { n: 1 } }, { status: 'valid' }],
      [{ op: 'validateStructured', fingerprint: 'f', instance: {} }, { status: 'valid' }],
      [{ op: 'validateElicitation', schema: {}, instance: {} }, { status: 'valid' }],
      [
        { op: 'validate', schema: 'f', instance: 1 },
        { fingerprint: 'f', outcome: { status: 'valid' } },
      ],
      [
        { op: 'validateArguments', fingerprint: 'f', instance: { n: 11 } },
        { status: 'invalid', issues },
      ],
      [
        { op: 'validate', schema: 'f', instance: 11 },
        { fingerprint: 'f', outcome: { status: 'invalid', issues } },
      ],
      // A schema sent as lossless JSON text is a string too, but not the fingerprint the answer names.
      [
        { op: 'validate', schema: '{}', instance: 1, encoded: ['schema'] },
        { fingerprint: 'g', outcome: { status: 'valid' } },
      ],
      // Answers of the operations that are not validations travel as they are.
      [
        { op: 'compile', schema: { type: 'string' } },
        { status: 'accepted', fingerprint: 'h', warnings: [] },
      ],
      [{ op: 'stats' }, { cachedSchemas: 0, cachedTools: 0, compiles: 0, cacheHits: 0, validations: 0 }],
    ];
    const batch = startBatch(1);
    for (const [request] of cases) putRequest(batch, request);
    const reply = packReply(
      1,
      cases.map(([, value]) => ({ ok: true, value })),
      batch,
    );
    assert.deepEqual(reply.slice(2, 6), [true, true, true, true], 'valid outcomes travel as true');
    assert.deepEqual(
      reply.slice(6),
      cases.slice(4).map(([, value]) => value),
    );
    unpackReply(reply, (i, response) => {
      const [request, value] = cases[i] as [WorkerRequest, unknown];
      assert.ok(response.ok);
      assert.deepEqual(expandAnswer(request, response.value), value, request.op);
    });
    // `true` is rebuilt only for the operations that always answer with an object.
    assert.equal(expandAnswer({ op: 'stats' }, true), true);
    assert.equal(expandAnswer({ op: 'compile', schema: true }, true), true);
  });
});

describe('encodeRequest', () => {
  it('leaves a request without lossless numbers as it is (the same object)', () => {
    const request: WorkerRequest = { op: 'validateArguments', fingerprint: 'f', instance: { a: [1, { b: 'x' }], c: 2n } };
    assert.equal(encodeRequest(request), request);
    const stats: WorkerRequest = { op: 'stats' };
    assert.equal(encodeRequest(stats), stats);
  });

  it('sends the fields holding lossless numbers, at any depth, as lossless JSON text', () => {
    const big = new LosslessNumber('9007199254740993');
    assert.deepEqual(encodeRequest({ op: 'validate', schema: { maximum: 1 }, instance: { a: [{ b: big }] } }), {
      op: 'validate',
      schema: { maximum: 1 },
      instance: '{"a":[{"b":9007199254740993}]}',
      encoded: ['instance'],
    });
    assert.deepEqual(encodeRequest({ op: 'compileTools', tools: [{ name: 't', inputSchema: { maximum: big } }] }), {
      op: 'compileTools',
      tools: '[{"name":"t","inputSchema":{"maximum":9007199254740993}}]',
      encoded: ['tools'],
    });
    assert.deepEqual(encodeRequest({ op: 'validate', schema: { maximum: big }, instance: big }), {
      op: 'validate',
      schema: '{"maximum":9007199254740993}',
      instance: '9007199254740993',
      encoded: ['schema', 'instance'],
    });
  });
});

describe('the worker API', () => {
  it('answers a batch of synchronous operations before the message handler returns, progress in shared memory', async () => {
    const worker = await inThread(true);
    worker.deliver(worker.batch(1, [{ op: 'compileTools', tools: [tool] }]));
    await until(() => worker.replies().length > 0);
    const compiled = worker.replies()[0]?.responses[0] as { value: { fingerprint: string }[] };
    const fingerprint = (compiled.value[0] as { fingerprint: string }).fingerprint;
    worker.posted.length = 0;
    worker.deliver(
      worker.batch(2, [
        { op: 'validateArguments', fingerprint, instance: { n: 1 } },
        { op: 'validateArguments', fingerprint, instance: { n: 11 } },
        { op: 'validateArguments', fingerprint: '0'.repeat(64), instance: {} },
        { op: 'stats' },
      ]),
    );
    // No await: the reply is already posted.
    const [reply] = worker.replies();
    assert.equal(reply?.firstSeq, 2);
    assert.deepEqual(
      reply?.responses.map((response) => (response.ok ? response.value : response.code)),
      [
        { status: 'valid' },
        { status: 'invalid', issues: [{ path: '$.n', keyword: 'maximum', message: 'got 11, want at most 10' }] },
        'UNKNOWN_FINGERPRINT',
        { cachedSchemas: 1, cachedTools: 1, compiles: 1, cacheHits: 0, validations: 2 },
      ],
    );
    assert.equal(worker.stored(), 5, 'the last finished request, in shared memory');
    assert.equal(worker.startedSlot(), 5, 'and the last started one');
    assert.equal(worker.posted.length, 1, 'no progress messages');
  });

  it('marks a request started in shared memory before it runs, so receiving a batch is charged to none of it', async () => {
    // An adapter that reads the progress slots while the engine compiles: the compile is started, not finished.
    const seen: (number | undefined)[][] = [];
    const cfworker = createCfworkerAdapter();
    const adapter: SchemaValidatorAdapter = {
      ...cfworker,
      compile: (input) => {
        seen.push([worker.stored(), worker.startedSlot()]);
        return cfworker.compile(input);
      },
    };
    const worker = await inThread(true, { adapter });
    worker.deliver(worker.batch(1, [{ op: 'stats' }, { op: 'compile', schema: { type: 'string' } }, { op: 'stats' }]));
    assert.deepEqual(seen, [[1, 2]]);
    assert.deepEqual([worker.stored(), worker.startedSlot()], [3, 3]);
  });

  it('without shared memory posts each finished request but a batch’s last, before the reply', async () => {
    const worker = await inThread(false);
    worker.deliver(worker.batch(10, [{ op: 'stats' }, { op: 'stats' }, { op: 'stats' }]));
    assert.equal(worker.stored(), undefined);
    assert.deepEqual(worker.posted.slice(0, 2), [10, 11]);
    assert.equal(worker.posted.length, 3);
    assert.deepEqual(worker.replies()[0]?.firstSeq, 10);
  });

  it('answers each batch, compiles included, before the next is read, in the order they arrived', async () => {
    const worker = await inThread(false);
    // Distinct schemas: each answer's fingerprint says which request it belongs to.
    const schemas = [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }];
    const [a, b, c, d] = schemas;
    worker.deliver(
      worker.batch(1, [
        { op: 'compile', schema: a },
        { op: 'compile', schema: b },
        { op: 'compile', schema: c },
      ]),
    );
    assert.deepEqual(
      worker.posted.filter((message) => typeof message === 'number'),
      [1, 2],
    );
    assert.equal(worker.replies().length, 1, 'the batch was answered before deliver returned');
    worker.deliver(worker.batch(4, [{ op: 'compile', schema: d }]));
    const replies = worker.replies();
    assert.deepEqual(
      replies.map((reply) => reply.firstSeq),
      [1, 4],
    );
    const answers = replies.flatMap((reply) => reply.responses).map((response) => (response.ok ? response.value : response.code));
    assert.deepEqual(
      answers,
      schemas.map((schema) => ({ status: 'accepted', fingerprint: fingerprint(schema), warnings: [] })),
    );
  });
});

/** Counts the messages the host receives on the data lane of every worker `spawn` starts. */
function countingReceived(spawn: SpawnWorker, counts: { numbers: number; replies: number }): SpawnWorker {
  return () => {
    const handle = spawn();
    return {
      ...handle,
      lane: (onMessage) =>
        handle.lane((data) => {
          if (typeof data === 'number') counts.numbers++;
          else counts.replies++;
          onMessage(data);
        }),
    };
  };
}

async function outcomes(calls: Promise<unknown>[]): Promise<unknown[]> {
  return Promise.all(
    calls.map((call) =>
      call.then(
        (outcome) => {
          const { status } = outcome as { status?: unknown };
          return status === 'valid' || status === 'invalid' ? status === 'valid' : outcome;
        },
        (error: ValidatorError) => error.code,
      ),
    ),
  );
}

describe('the watchdog', () => {
  for (const sharedMemory of [true, false]) {
    const progress = sharedMemory ? 'shared memory' : 'lane messages (no shared memory)';
    it(`blames exactly the stuck request with progress through ${progress}`, async () => {
      const counts = { numbers: 0, replies: 0 };
      const validator = createValidator({
        timeBudgetMs: 300,
        policy: roomyPolicy,
        spawn: countingReceived(spawnNodeWorker({ sharedMemory }), counts),
      });
      try {
        // Warm the worker up, so the batch below starts on a loaded engine; the slow call names a compiled schema.
        assert.deepEqual(await validator.validate({ type: 'integer' }, 1), { status: 'valid' });
        const { fingerprint } = await validator.compile(rowsSchema);
        const calls = [
          validator.validate({ type: 'integer' }, 1),
          validator.validate({ type: 'integer' }, 'two'),
          validator.validate(fingerprint, manyRows(300_000)),
          validator.validate({ minimum: 3 }, 4),
          validator.validate({ minimum: 3 }, 2),
        ];
        assert.deepEqual(await outcomes(calls), [true, false, 'TIMEOUT', true, false]);
        if (sharedMemory) assert.equal(counts.numbers, 0, 'no progress messages');
        else assert.ok(counts.numbers >= 2, `${counts.numbers} progress messages`);
        // One timeout blames the call, not the schema: it still validates.
        assert.deepEqual(await validator.validate(fingerprint, [{ a: 'x', b: 1 }]), { status: 'valid' });
      } finally {
        await validator.close();
      }
    });
  }

  it('sends no progress message for the last request of a batch (its reply says it)', async () => {
    const counts = { numbers: 0, replies: 0 };
    const validator = createValidator({ spawn: countingReceived(spawnNodeWorker({ sharedMemory: false }), counts) });
    try {
      await validator.validate({ type: 'integer' }, 0);
      const before = { ...counts };
      for (let i = 0; i < 20; i++) await validator.validate({ type: 'integer' }, i);
      assert.equal(counts.numbers - before.numbers, 0, 'one request per batch: no progress messages');
      assert.equal(counts.replies - before.replies, 20);
      await Promise.all(Array.from({ length: 10 }, (_, i) => validator.validate({ type: 'integer' }, i)));
      assert.equal(counts.numbers - before.numbers, 9);
    } finally {
      await validator.close();
    }
  });

  it('re-arms one timer per worker instead of a timer per batch', async () => {
    const validator = createValidator();
    const original = globalThis.setTimeout;
    let timers = 0;
    try {
      await validator.validate({ type: 'integer' }, 0);
      globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
        timers++;
        return original(...args);
      }) as typeof setTimeout;
      for (let i = 0; i < 200; i++) await validator.validate({ type: 'integer' }, i);
      assert.ok(timers <= 1, `${timers} timers for 200 sequential calls`);
    } finally {
      globalThis.setTimeout = original;
      await validator.close();
    }
  });
});

describe('requests that cannot cross', () => {
  it('fail alone; the rest of their batch is answered', async () => {
    const validator = createValidator();
    try {
      const calls = [
        validator.validate({ type: 'integer' }, 1),
        validator.validate({ type: 'object' }, { f: () => 1 }),
        validator.validate({ type: 'integer' }, 'x'),
      ];
      assert.deepEqual(await outcomes(calls), [true, 'INTERNAL', false]);
    } finally {
      await validator.close();
    }
  });
});

describe('the Node process', () => {
  /** Runs a module in a fresh Node process (with tsx) and returns its output and how long it lived. */
  const run = (body: string): { status: number | null; stdout: string; stderr: string; ms: number } => {
    const dir = mkdtempSync(join(tmpdir(), 'schemaval-exit-'));
    const script = join(dir, 'host.mjs');
    const host = JSON.stringify(fileURLToPath(new URL('../../src/host/node.ts', import.meta.url)));
    writeFileSync(script, `import { createValidator } from ${host};\n${body}`);
    const started = performance.now();
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 25_000,
      });
      return { status: child.status, stdout: child.stdout.trim(), stderr: child.stderr, ms: performance.now() - started };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('exits once its calls are answered, even if the host forgets close()', () => {
    const child = run(`console.log(JSON.stringify(await createValidator().validate({ type: 'integer' }, 1)));`);
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout, '{"status":"valid"}');
  });

  it("exits at once after close() during the worker's start-up (no start-up timer left behind)", () => {
    const child = run(`const validator = createValidator();
const pending = validator.validate({ type: 'integer' }, 1).catch((error) => error.code);
await new Promise((resolve) => setTimeout(resolve, 20));
await validator.close();
console.log(await pending);
const closed = performance.now();
process.on('exit', () => console.log(performance.now() - closed < 5000 ? 'prompt' : 'lingered'));`);
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout, 'CLOSED\nprompt');
  });
});
