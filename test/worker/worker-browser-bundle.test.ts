// The browser Worker entry and the browser host bundle with no Node-only module.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

describe('browser bundles', () => {
  for (const path of ['worker/browser-entry.ts', 'host/browser.ts']) {
    it(`${path} bundles for the browser without Node built-ins`, async () => {
      const result = await build({
        entryPoints: [entry(path)],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      assert.ok(inputs.some((input) => input.includes('src/')));
      const nodeOnly = inputs.filter((input) => /^node:|node-adapter|worker_threads|spawn-node-worker/.test(input));
      assert.deepEqual(nodeOnly, []);
      assert.doesNotMatch(result.outputFiles[0]?.text ?? '', /require\(["']node:|from ["']node:/);
    });
  }
});
