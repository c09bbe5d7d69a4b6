// re2js provided on demand (issue 21: the page's worker loads it as a chunk): before it is there, a schema whose
// pattern needs it fails with LINEAR_PATTERNS_UNAVAILABLE, is never refused for it (nothing cached) and never
// checked another way; once provided, the same schema compiles.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { createEngine } from '../../../src/engine/index.ts';
import { installRe2 } from '../../../src/engine/patterns/index.ts';
import { provideRe2, re2Provided } from '../../../src/engine/patterns/re2-library.ts';

const unavailable = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'LINEAR_PATTERNS_UNAVAILABLE' && /could not be loaded/.test(String((error as Error).message));

describe('re2js provided on demand', () => {
  after(() => provideRe2(RE2JS));

  it('is linked in by default', () => {
    assert.equal(re2Provided(), true);
  });

  it('fails a pattern that needs it, refuses nothing, and compiles it once installed', () => {
    const engine = createEngine();
    // Patterns no other test compiles, so the pattern cache cannot answer for re2js.
    const alternation = { type: 'string', pattern: '^(?:on-demand|lazy)+-[0-9]{3}$' };
    const script = { type: 'string', pattern: '^\\p{Script=Runic}+ on demand$' };
    provideRe2(undefined);
    assert.equal(re2Provided(), false);
    assert.throws(() => engine.compile(alternation), unavailable);
    assert.throws(() => engine.validate(script, 'ᚠᚢ on demand'), unavailable);
    // A pattern the native fast path keeps needs no re2js.
    assert.equal(engine.validate({ type: 'string', pattern: '^on-demand' }, 'on-demand!').status, 'valid');
    installRe2();
    assert.equal(re2Provided(), true);
    assert.equal(engine.compile(alternation).result.status, 'accepted');
    assert.equal(engine.validate(alternation, 'lazy-123').status, 'valid');
    assert.equal(engine.validate(alternation, 'eager-123').status, 'invalid');
    assert.equal(engine.validate(script, 'ᚠᚢ on demand').status, 'valid');
  });
});
