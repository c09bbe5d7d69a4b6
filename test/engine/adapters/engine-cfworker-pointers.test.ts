// The decoded pointers of cfworker's locations (cfworker-pointers.ts): a slot holds the last text of its length and
// last character, so texts that share a slot must still each get their own segments, and texts built anew (as
// cfworker builds them, call after call) must find the same pointer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pointerOf } from '../../../src/engine/adapters/cfworker/cfworker-pointers.ts';

/** A text with the same characters as `text` but not the same string object (cfworker concatenates its own). */
const rebuilt = (text: string): string => [...text].join('');

describe('pointerOf', () => {
  it('decodes each text to its own segments, however many share a slot', () => {
    // Same length and last character: the same slot, one after another.
    const texts = ['#/properties/ab/type', '#/properties/cd/type', '#/properties/a~1/type', '#/properties/%25x/type'];
    const expected = [
      ['properties', 'ab', 'type'],
      ['properties', 'cd', 'type'],
      ['properties', 'a/', 'type'],
      ['properties', '%x', 'type'],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [i, text] of texts.entries()) assert.deepEqual(pointerOf(rebuilt(text)).segments, expected[i], text);
    }
  });

  it('answers a text built anew with the pointer it decoded before', () => {
    const first = pointerOf(rebuilt('#/properties/owner/type'));
    assert.equal(pointerOf(rebuilt('#/properties/owner/type')), first);
    assert.deepEqual(pointerOf('#').segments, []);
    assert.deepEqual(pointerOf(rebuilt('#/owner')).segments, ['owner']);
  });

  it('decodes a text too long to keep, every time, to the same segments', () => {
    const long = `#/properties/${'x'.repeat(300)}`;
    const a = pointerOf(rebuilt(long));
    const b = pointerOf(rebuilt(long));
    assert.notEqual(a, b);
    assert.deepEqual(a.segments, b.segments);
  });
});
