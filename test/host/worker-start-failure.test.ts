// A worker that cannot start says which script it tried and what most likely fixes it (issue #22): the message
// builders, a browser Worker stand-in firing the event a failed module load fires, and a real worker_threads
// worker started from a file that is not there.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createValidator, spawnNodeWorker } from '../../src/host/node.ts';
import { spawnBrowserWorker } from '../../src/host/spawn-browser-worker.ts';
import { browserWorkerErrorReason, bundlerRecipeUrl, nodeWorkerErrorReason } from '../../src/host/worker-start-failure.ts';

describe('worker start-up failures', () => {
  it('link a section docs/host.md has', async () => {
    const host = await readFile(new URL('../../docs/host.md', import.meta.url), 'utf8');
    const anchor = new URL(bundlerRecipeUrl).hash.slice(1);
    const anchors = [...host.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
      (m[1] ?? '')
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replaceAll(' ', '-'),
    );
    assert.ok(anchors.includes(anchor), `docs/host.md has a heading for #${anchor} (${anchors.join(', ')})`);
    assert.match(bundlerRecipeUrl, /^https:\/\/github\.com\/schemaval\/schemaval\/blob\/main\/docs\/host\.md#/);
  });

  it('name the browser script that did not load and the fix, when the event has no message', () => {
    const reason = browserWorkerErrorReason('https://app.test/assets/worker.js', undefined);
    assert.match(reason, /^worker error: the worker script https:\/\/app\.test\/assets\/worker\.js did not load/);
    assert.ok(reason.includes('workerUrl'), reason);
    assert.ok(reason.endsWith(bundlerRecipeUrl), reason);
    assert.equal(browserWorkerErrorReason('https://app.test/w.js', ''), browserWorkerErrorReason('https://app.test/w.js', undefined));
  });

  it('keep the message of an error thrown inside a browser worker, with its script and no bundler hint', () => {
    assert.equal(
      browserWorkerErrorReason('https://app.test/w.js', 'Uncaught RangeError: too deep'),
      'worker error in https://app.test/w.js: Uncaught RangeError: too deep',
    );
  });

  it('give a Node worker whose entry is missing the hint, and any other failure its own message', () => {
    const script = '/srv/app/worker/node-entry.js';
    const missing = nodeWorkerErrorReason(script, { code: 'MODULE_NOT_FOUND', message: `Cannot find module '${script}'` });
    assert.equal(
      missing,
      `worker error: Cannot find module '${script}'; a bundled host passes spawnNodeWorker({ entry }) the URL of its own bundle of schemaval/worker/node: ${bundlerRecipeUrl}`,
    );
    // A dependency missing inside a worker that did load is not the bundler's doing.
    const dependency = "Cannot find package 'comlink' imported from /srv/app/worker/node-entry.js";
    assert.equal(
      nodeWorkerErrorReason('/srv/app/worker.js', { code: 'ERR_MODULE_NOT_FOUND', message: dependency }),
      `worker error: ${dependency}`,
    );
    assert.equal(nodeWorkerErrorReason(script, { message: 'out of memory' }), 'worker error: out of memory');
  });

  it('reach the crash listener of spawnBrowserWorker with the URL the page resolved', () => {
    const started: string[] = [];
    class FakeWorker extends EventTarget {
      constructor(url: URL | string) {
        super();
        started.push(String(url));
      }
      postMessage(): void {}
      terminate(): void {}
    }
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'Worker');
    Object.defineProperty(globalThis, 'Worker', { value: FakeWorker, configurable: true, writable: true });
    try {
      const handle = spawnBrowserWorker(new URL('https://app.test/static/schemaval-worker.js'))();
      const reasons: string[] = [];
      handle.onCrash((reason) => reasons.push(reason));
      // What a module worker whose script 404s fires: a plain Event, no message (and only once reported).
      (handle.endpoint as unknown as EventTarget).dispatchEvent(new Event('error'));
      (handle.endpoint as unknown as EventTarget).dispatchEvent(new Event('error'));
      assert.deepEqual(started, ['https://app.test/static/schemaval-worker.js']);
      assert.deepEqual(reasons, [browserWorkerErrorReason('https://app.test/static/schemaval-worker.js', undefined)]);
      handle.terminate();
    } finally {
      if (saved === undefined) Reflect.deleteProperty(globalThis, 'Worker');
      else Object.defineProperty(globalThis, 'Worker', saved);
    }
  });

  it('reject a call on a real worker_threads worker started from a missing file with WORKER_CRASHED naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'schemaval-missing-worker-'));
    const entry = join(dir, 'worker', 'node-entry.js');
    const validator = createValidator({ spawn: spawnNodeWorker({ entry: pathToFileURL(entry) }) });
    try {
      await assert.rejects(validator.validate({ type: 'integer' }, 1), (error: Error & { code?: unknown }) => {
        assert.equal(error.code, 'WORKER_CRASHED');
        assert.ok(error.message.startsWith('the validation worker could not start (worker error: Cannot find module'), error.message);
        assert.ok(error.message.includes(entry), error.message);
        assert.ok(error.message.includes(bundlerRecipeUrl), error.message);
        return true;
      });
    } finally {
      await validator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
