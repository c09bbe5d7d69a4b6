// How a value is written into a message: JSON text, shortened, with numbers a double cannot hold written exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeValue } from '../../../src/engine/issues/describe-value.ts';
import { truncate } from '../../../src/engine/json/truncate.ts';

/** Digits for the one double this test treats as inexact; every other value has none. */
const exactOf = (value: unknown): string | undefined => (value === 2 ** 64 ? '18446744073709551616' : undefined);

describe('describeValue', () => {
  it('writes any JSON value as its JSON text, shortened, whether or not numbers are looked up', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = truncate(JSON.stringify(value) ?? String(value), 60);
        assert.equal(describeValue(value), text);
        assert.equal(
          describeValue(value, () => undefined),
          text,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('writes an inexact number at the top and nested in objects and arrays by its exact digits', () => {
    assert.equal(describeValue(2 ** 64, exactOf), '18446744073709551616');
    assert.equal(describeValue({ a: [2 ** 64, 1] }, exactOf), '{"a":[18446744073709551616,1]}');
    assert.equal(describeValue([2 ** 64], exactOf), '[18446744073709551616]');
  });

  it('writes scalars as JSON and a non-JSON value by String', () => {
    assert.equal(describeValue('ui', exactOf), '"ui"');
    assert.equal(describeValue(42, exactOf), '42');
    assert.equal(describeValue(null, exactOf), 'null');
    assert.equal(describeValue(true, exactOf), 'true');
    assert.equal(describeValue(10n, exactOf), '10');
    assert.equal(describeValue(undefined, exactOf), 'undefined');
    assert.equal(describeValue('x'.repeat(100), exactOf), `"${'x'.repeat(59)}…`);
  });
});
