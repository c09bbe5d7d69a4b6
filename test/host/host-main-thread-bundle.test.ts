// A page's main thread carries no engine (issue #18 item 5): what `createValidator` + `withSchemaValidation` from the
// browser host bundle to, minified as a page ships it. The engine runs in the worker; inline mode is its own entry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { createValidator } from '../../src/host/browser.ts';
import { createInlineValidator } from '../../src/host/inline-validator.ts';
import { createValidator as createNodeValidator } from '../../src/host/node.ts';
import { browserPageBuild, engineOnMainThread, shippedInputs } from '../helpers/bundle-inputs.ts';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

async function bundle(contents: string, external: string[] = []) {
  const result = await build({
    ...browserPageBuild,
    stdin: { contents, resolveDir: src('host'), sourcefile: 'page.ts', loader: 'ts' },
    external,
  });
  const output = result.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs = shippedInputs(result.metafile);
  return { inputs, bytes: output.length, gzip: gzipSync(output).length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const page = "import { createValidator, withSchemaValidation } from './browser.ts';\nexport { createValidator, withSchemaValidation };\n";
const sdk = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'zod', 'zod/*'];

describe("the browser host's main-thread bundle", () => {
  it('createValidator + withSchemaValidation bundle without the engine, re2js or @cfworker/json-schema', async (t) => {
    const whole = await bundle(page);
    const own = await bundle(page, sdk);
    t.diagnostic(`with the MCP SDK and zod: ${kb(whole.bytes)} minified, ${kb(whole.gzip)} gzip`);
    t.diagnostic(`schemaval's own part (SDK external): ${kb(own.bytes)} minified, ${kb(own.gzip)} gzip`);
    assert.ok(
      whole.inputs.some((input) => input.endsWith('src/host/worker-client.ts')),
      'the worker client is in it',
    );
    assert.deepEqual(
      whole.inputs.filter((input) => engineOnMainThread.test(input)),
      [],
    );
    // Before issue #18 the same two imports were 94.7 KB gzip of schemaval's own (293 KB minified, re2js half of it).
    assert.ok(own.gzip < 24 * 1024, `schemaval's own main-thread code stays small (${kb(own.gzip)} gzip)`);
  });

  it('the inline entry is where the engine is (the check above can fail)', async (t) => {
    const inline = await bundle("export { createInlineValidator } from './inline-validator.ts';\n");
    t.diagnostic(`schemaval/host/inline: ${kb(inline.bytes)} minified, ${kb(inline.gzip)} gzip`);
    const found = inline.inputs.filter((input) => engineOnMainThread.test(input));
    for (const part of [
      'create-engine.ts',
      'adapters/cfworker/cfworker-adapter.ts',
      'node_modules/re2js/',
      'node_modules/@cfworker/json-schema/',
    ])
      assert.ok(
        found.some((input) => input.includes(part)),
        `${part} is in the inline bundle`,
      );
  });
});

describe('inline mode', () => {
  it("the browser createValidator refuses mode 'inline' with INVALID_ARGUMENT naming schemaval/host/inline", () => {
    assert.throws(
      // @ts-expect-error the browser entry's options only take mode 'worker'
      () => createValidator({ mode: 'inline', workerUrl: 'https://example.test/worker.js' }),
      (error: { code?: string; message?: string }) =>
        error.code === 'INVALID_ARGUMENT' && /createInlineValidator\(\) from 'schemaval\/host\/inline'/.test(error.message ?? ''),
    );
  });

  it('createInlineValidator validates in this thread with the given policy, and rejects after close', async () => {
    const validator = createInlineValidator({ timeBudgetMs: 40, policy: { maxIssues: 7 } });
    assert.equal(validator.mode, 'inline');
    assert.equal(validator.policy.timeBudgetMs, 40);
    assert.equal(validator.policy.maxIssues, 7);
    const outcome = await validator.validate({ type: 'integer', minimum: 1 }, 0);
    assert.equal(outcome.status, 'invalid');
    await validator.close();
    await assert.rejects(validator.validate({ type: 'integer' }, 1), { code: 'CLOSED' });
  });

  it("the Node createValidator still takes mode 'inline'", async () => {
    const validator = createNodeValidator({ mode: 'inline', timeBudgetMs: 30 });
    assert.equal(validator.mode, 'inline');
    assert.equal(validator.policy.timeBudgetMs, 30);
    assert.deepEqual(await validator.validate({ type: 'string' }, 'x'), { status: 'valid' });
    await validator.close();
  });
});
