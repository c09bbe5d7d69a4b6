// Inline and worker modes give identical answers over the whole JSON-Schema-Test-Suite.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createValidator } from '../src/host/node.ts';
import { loadSuite } from './conformance/suite.ts';

const suite = loadSuite(fileURLToPath(new URL('./fixtures/json-schema-test-suite', import.meta.url)));

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
});

const dialectUri: Record<string, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-04': 'http://json-schema.org/draft-04/schema#',
};
