import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createEngine } from '../../src/engine/index.ts';
import { hashText, toolFingerprint } from '../../src/engine/json/index.ts';
import { nodeHashText } from '../../src/worker/node-hash.ts';

describe("the Node worker's native SHA-256", () => {
  it('gives the same hex as the engine default for every well-formed text', () => {
    for (const text of ['', 'abc', '{"a":1}', 'é€😀', '\u0000\u007f\u0080\u07ff\u0800\uffff', 'x'.repeat(100_000)]) {
      assert.equal(nodeHashText(text), hashText(text), JSON.stringify(text.slice(0, 20)));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => nodeHashText(text) === hashText(text)),
      { numRuns: 300 },
    );
  });

  it('makes an engine whose tool fingerprints are the contract ones', () => {
    const tools = [
      { name: 'a', inputSchema: { type: 'object', properties: { é: { type: 'string', pattern: '^😀+$' } } } },
      { name: 'b', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['x'] } },
    ];
    const native = createEngine({ hashText: nodeHashText }).compileTools(tools);
    assert.deepEqual(
      native.map((verdict) => verdict.fingerprint),
      tools.map((tool) => toolFingerprint(tool)),
    );
    assert.ok(native.every((verdict) => verdict.status === 'accepted'));
  });
});
