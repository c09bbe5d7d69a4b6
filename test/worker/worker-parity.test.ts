// Inline and worker modes give identical answers over the whole JSON-Schema-Test-Suite, and on a tool list's own
// refusals (each tool crosses to the worker alone, so the host must judge the list).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toolFingerprint } from '../../src/engine/index.ts';
import { createValidator } from '../../src/host/node.ts';
import { loadSuite } from '../conformance/suite.ts';

const suite = loadSuite(fileURLToPath(new URL('../fixtures/json-schema-test-suite', import.meta.url)));

describe('inline and worker modes', () => {
  const inline = createValidator({ mode: 'inline' });
  const worker = createValidator({ mode: 'worker', timeBudgetMs: 5_000 });
  after(async () => {
    await inline.close();
    await worker.close();
  });

  it('agree on every refusal, verdict and issue of the conformance suite', async () => {
    const run = (validator: typeof inline) =>
      Promise.all(
        suite.map(async (group) => {
          // The suite's draft4/6/7 schemas carry no $schema; name the dialect as the conformance runner does.
          const schema =
            typeof group.schema === 'object' && group.schema !== null && !('$schema' in group.schema)
              ? { $schema: dialectUri[group.dialect], ...group.schema }
              : group.schema;
          return Promise.all(group.tests.map((test) => validator.validate(schema as object, test.data)));
        }),
      );
    const [a, b] = await Promise.all([run(inline), run(worker)]);
    assert.equal(a.length, suite.length);
    assert.ok(a.flat().length > 4000);
    assert.deepEqual(b, a);
  });

  it('agree on the list’s own refusals: duplicate names, malformed entries by their place in the list', async () => {
    const object = { type: 'object' };
    const twice = { name: 'parity-twice', inputSchema: object };
    const list: unknown[] = [
      { name: 'parity-fine', inputSchema: object },
      twice,
      42,
      { name: '', inputSchema: object },
      { name: 'parity-twice', inputSchema: { type: 'object', properties: { a: {} } } },
      { name: 'parity-no-input' },
      { inputSchema: object },
      { name: 'x'.repeat(129), inputSchema: object },
      { name: 'parity-lone\udc00', inputSchema: object },
    ];
    const [a, b] = await Promise.all([inline.compileTools(list), worker.compileTools(list)]);
    assert.deepEqual(b, a);
    assert.deepEqual(
      a.map((verdict) => verdict.status),
      ['accepted', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused'],
    );
    // The same definition twice: both refused, and neither compiled (nothing answers by its fingerprint).
    const pair = [twice, twice];
    const [c, d] = await Promise.all([inline.compileTools(pair), worker.compileTools(pair)]);
    assert.deepEqual(d, c);
    assert.deepEqual(
      c.map((verdict) => (verdict.input?.status === 'refused' ? verdict.input.refusal.message : verdict.status)),
      [
        'tool name "parity-twice" appears 2 times in this list: every definition of it is refused',
        'tool name "parity-twice" appears 2 times in this list: every definition of it is refused',
      ],
    );
    for (const validator of [inline, worker])
      await assert.rejects(validator.validateArguments(toolFingerprint(twice), {}), { code: 'UNKNOWN_FINGERPRINT' });
  });
});

const dialectUri: Record<string, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-04': 'http://json-schema.org/draft-04/schema#',
};
