// The demo page as it ships (issue 21): minified, with no schema engine and no ajv in what its main thread loads;
// the SDK clients (v1 on connect, v2 for a 2026-07-28 server) and re2js (for a pattern) loaded on demand.
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildPage } from '../../scripts/build-page.mjs';
import { engineOnMainThread } from '../helpers/bundle-inputs.ts';

const out = fileURLToPath(new URL('../../.cache/page-build-test', import.meta.url));

describe('the demo page build', () => {
  after(() => rm(out, { recursive: true, force: true }));

  it('keeps the engine in the worker, leaves ajv out, and loads the v2 client only on demand', async (t) => {
    const built = await buildPage({ quiet: true, out });
    const byName = new Map(built.scripts.map((script) => [script.name, script]));
    const main = byName.get('main.js');
    const worker = byName.get('worker.js');
    assert.ok(main && worker);
    const mainThread = built.upFront.filter((name) => name !== 'worker.js').map((name) => byName.get(name));
    for (const script of mainThread) {
      assert.ok(script);
      assert.deepEqual(
        script.inputs.filter((input) => engineOnMainThread.test(input.path)),
        [],
        `${script.name} holds engine code`,
      );
      assert.deepEqual(
        script.inputs.filter((input) => /node_modules\/(ajv|ajv-formats|@modelcontextprotocol\/client)\//.test(input.path)),
        [],
        `${script.name} holds ajv or the v2 client`,
      );
    }
    // The checks above can fail: the engine is in the worker, the v2 client in a chunk main.js imports on demand.
    assert.ok(worker.inputs.some((input) => input.path.includes('node_modules/@cfworker/json-schema/')));
    // re2js is a chunk the worker imports when a request has a pattern; nothing loaded up front holds it.
    const holdsRe2 = (name: string) => byName.get(name)?.inputs.some((input) => input.path.includes('node_modules/re2js/')) === true;
    assert.deepEqual(built.upFront.filter(holdsRe2), []);
    const patterns = built.scripts.find((script) => holdsRe2(script.name));
    assert.ok(patterns, 're2js is bundled somewhere');
    assert.ok(worker.lazy.includes(patterns.name), 'worker.js loads it with import()');
    // So is the v1 client, with zod: main.js imports it on connect.
    const legacy = built.scripts.find((script) => script.inputs.some((input) => input.path.endsWith('src/ui/connect-legacy.ts')));
    assert.ok(legacy && main.lazy.includes(legacy.name), 'main.js loads the v1 client with import()');
    const holdsZod = (name: string) => byName.get(name)?.inputs.some((input) => input.path.includes('node_modules/zod/')) === true;
    assert.deepEqual(built.upFront.filter(holdsZod), []);
    const modern = built.scripts.find((script) => script.inputs.some((input) => input.path.includes('@modelcontextprotocol/client/')));
    assert.ok(modern, 'the v2 client is bundled somewhere');
    assert.ok(main.lazy.includes(modern.name), 'main.js loads it with import()');
    assert.ok(!built.upFront.includes(modern.name));
    let gzip = 0;
    for (const name of built.upFront) gzip += gzipSync(await readFile(`${out}/${name}`)).length;
    t.diagnostic(`a visit downloads ${(gzip / 1024).toFixed(1)} KB of gzip script: ${built.upFront.join(', ')}`);
    // Issue 21: at most 120 KB up front (399 KB unminified, 175 KB with re2js and the v1 client in it).
    assert.ok(gzip <= 120 * 1024, `${gzip} bytes`);
  });
});
