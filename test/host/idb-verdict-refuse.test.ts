// A tool found too_slow after it was listed: the page rewrites its cached verdict, so the next adapter refuses it.
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStore } from 'idb-keyval';
import { createIdbVerdictCache, createValidator, withSchemaValidation } from '../../src/host/node.ts';
import type { ToolVerdict } from '../../src/protocol/index.ts';
import { startFixture } from '../helpers/mcp-fixture.ts';

const tooSlow = { code: 'too_slow', message: 'validation ran past the 1 ms budget 3 times in a row' } as const;

describe('IndexedDB verdict cache: refuse', () => {
  it('turns a cached accepted tool into a refused one that a reloaded adapter leaves out of listTools', async () => {
    const store = createStore('schemaval-refuse-test', 'verdicts');
    const first = await startFixture();
    const verdicts: ToolVerdict[] = [];
    const host1 = withSchemaValidation(first.client, {
      validator: createValidator({ mode: 'inline' }),
      cache: createIdbVerdictCache(store),
      onVerdicts: (summary) => verdicts.push(...summary.verdicts),
    });
    const listed1 = (await host1.listTools()).tools.map((tool) => tool.name);
    await first.close();
    const victim = verdicts.find((verdict) => verdict.status === 'accepted');
    assert.ok(victim, 'the fixture has an accepted tool');
    assert.ok(listed1.includes(victim.name));

    const cache = createIdbVerdictCache(store);
    assert.equal(await cache.refuse(victim.fingerprint, 'input', tooSlow), 1);
    // Already refused: nothing left to change.
    assert.equal(await cache.refuse(victim.fingerprint, 'input', tooSlow), 0);
    assert.equal(await cache.refuse('', 'input', tooSlow), 0);

    const second = await startFixture();
    const again: ToolVerdict[] = [];
    let compiled = -1;
    const host2 = withSchemaValidation(second.client, {
      validator: createValidator({ mode: 'inline' }),
      cache: createIdbVerdictCache(store),
      onVerdicts: (summary) => {
        again.push(...summary.verdicts);
        compiled = summary.compiled;
      },
    });
    const listed2 = (await host2.listTools()).tools.map((tool) => tool.name);
    await second.close();
    assert.equal(compiled, 0);
    assert.deepEqual(
      listed2,
      listed1.filter((name) => name !== victim.name),
    );
    assert.deepEqual(
      again.find((verdict) => verdict.name === victim.name),
      { ...verdicts.find((verdict) => verdict.name === victim.name), status: 'refused', input: { status: 'refused', refusal: tooSlow } },
    );
  });
});
