import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LosslessNumber } from 'lossless-json';
import { exactJsonText } from '../../../src/engine/json/exact-json-text.ts';
import { parseJson } from '../../../src/engine/json/parse-json.ts';

describe('exactJsonText', () => {
  it('writes plain JSON as JSON.stringify does', () => {
    const value = { b: [1, 2.5, -0, 'x\u2028"'], a: { nested: true, nothing: null }, e: '€😀' };
    assert.equal(exactJsonText(value), JSON.stringify(value));
  });

  it('keeps the digits of a number a double cannot hold, as parseJson read it', () => {
    const text = '{"big":9007199254740993,"tiny":1e-400,"list":[12345678901234567890]}';
    const parsed = parseJson(text, { maxBytes: 1024, maxDepth: 10 });
    assert.ok(parsed.ok);
    assert.equal(exactJsonText(parsed.value), text);
  });

  it('writes a bigint exactly instead of throwing', () => {
    assert.equal(exactJsonText({ n: 2n ** 70n }), '{"n":1180591620717411303424}');
  });

  it('is still exact for a text that merely names the marker key', () => {
    const value = { isLosslessNumber: 'no', n: new LosslessNumber('100000000000000000001') };
    assert.equal(exactJsonText(value), '{"isLosslessNumber":"no","n":100000000000000000001}');
    assert.equal(exactJsonText({ isLosslessNumber: true }), '{"isLosslessNumber":true}');
  });

  it('gives undefined where JSON.stringify gives no text', () => {
    assert.equal(exactJsonText(undefined), undefined);
  });
});
