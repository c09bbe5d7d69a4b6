// The engine's instance copy (src/engine/json/copy-json.ts): what it counts, what it refuses and where.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { copyJson, jsonObjectPrototype } from '../../../src/engine/json/copy-json.ts';
import { hasPatternKeys } from '../../../src/engine/schema/pattern-keys.ts';

const limits = { maxBytes: 1 << 24, maxDepth: 64 };

/** JSON values and their nodes, counted independently of the copy. */
function nodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + nodes(item), 0);
  if (typeof value === 'object' && value !== null) return 1 + Object.values(value).reduce((sum: number, item) => sum + nodes(item), 0);
  return 1;
}

function prototypesOf(value: unknown, found: Set<unknown> = new Set()): Set<unknown> {
  if (typeof value !== 'object' || value === null) return found;
  found.add(Object.getPrototypeOf(value));
  for (const child of Object.values(value)) prototypesOf(child, found);
  return found;
}

describe('copyJson', () => {
  it('counts the UTF-8 bytes of the JSON text and every value, and copies into empty-prototype objects (fast-check)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary-ascii' }));
    const values = fc.jsonValue({ maxDepth: 5, stringUnit: 'grapheme' });
    fc.assert(
      fc.property(fc.oneof(values, fc.dictionary(text, values)), (value) => {
        const copied = copyJson(value, limits);
        assert.ok(copied.ok);
        assert.equal(copied.bytes, Buffer.byteLength(JSON.stringify(value)));
        assert.equal(copied.values, nodes(value));
        assert.equal(JSON.stringify(copied.holder[0]), JSON.stringify(value));
        for (const proto of prototypesOf(copied.holder[0])) assert.ok(proto === jsonObjectPrototype || proto === Array.prototype);
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });

  it('counts the longest route of keys and the sums over arrays that the work ceiling reads (fast-check)', () => {
    // Independently: each array's items n, the values N below it and the bytes B of its JSON text.
    const expected = (root: unknown) => {
      const sums = { nodes: 0, bytes: 0, itemPairs: 0, itemNodes: 0, itemBytes: 0 };
      let keyPath = 0;
      const visit = (value: unknown, path: number): void => {
        keyPath = Math.max(keyPath, path);
        if (Array.isArray(value)) {
          const n = value.length;
          const below = nodes(value) - 1;
          const bytes = Buffer.byteLength(JSON.stringify(value));
          sums.nodes += below;
          sums.bytes += bytes;
          sums.itemPairs += n * n;
          sums.itemNodes += n * below;
          sums.itemBytes += n * bytes;
          for (const item of value) visit(item, path);
        } else if (typeof value === 'object' && value !== null)
          for (const [key, child] of Object.entries(value)) visit(child, path + key.length);
      };
      visit(root, 0);
      return { keyPath, arrays: sums };
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const copied = copyJson(value, limits);
        assert.ok(copied.ok);
        assert.deepEqual({ keyPath: copied.keyPath, arrays: { ...copied.arrays } }, expected(value));
      }),
      { numRuns: 500, seed: 20261204 },
    );
    const copied = copyJson({ ab: { cde: [1, { f: [] }] }, g: 'x' }, limits);
    assert.ok(copied.ok);
    // ab + cde + f; the arrays: [1,{"f":[]}] (2 items, 3 values below it, 12 bytes) and [] (0 items, 2 bytes).
    assert.deepEqual(
      { keyPath: copied.keyPath, arrays: { ...copied.arrays } },
      {
        keyPath: 6,
        arrays: { nodes: 3, bytes: 14, itemPairs: 4, itemNodes: 6, itemBytes: 24 },
      },
    );
  });

  it('counts every key of a wide object with escapes and non-ASCII characters', () => {
    const wide = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`é${i}"`, i]));
    for (let round = 0; round < 2; round++) {
      const copied = copyJson(wide, limits);
      assert.ok(copied.ok);
      assert.equal(copied.bytes, Buffer.byteLength(JSON.stringify(wide)));
    }
  });

  it('names the path to what is not JSON: a function, a class instance, a throwing getter, NaN', () => {
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const cases: [unknown, (string | number)[], string][] = [
      [{ a: [1, 2, { b: () => 1 }] }, ['a', 2, 'b'], 'a function is not a JSON value'],
      [[0, new Date(0)], [1], 'only plain objects are JSON objects'],
      [{ deep: { getter } }, ['deep', 'getter', 'x'], 'reading it failed (Error)'],
      [{ n: [Number.NaN] }, ['n', 0], 'NaN is not a JSON number'],
      // A proxy that cannot list its keys, as the value itself and below a key.
      [new Proxy({}, { ownKeys: () => assert.fail('no keys') }), [], 'reading it failed (AssertionError)'],
      [{ p: new Proxy({}, { ownKeys: () => assert.fail('no keys') }) }, ['p'], 'reading it failed (AssertionError)'],
    ];
    for (const [value, path, detail] of cases) {
      const copied = copyJson(value, limits);
      assert.deepEqual(copied, { ok: false, reason: 'not_json', path, detail });
    }
  });

  it('refuses a key with a lone surrogate at the object holding it, every time', () => {
    for (let round = 0; round < 2; round++) {
      const copied = copyJson({ outer: { '\ud800': 1 } }, limits);
      assert.equal(copied.ok, false);
      assert.ok(!copied.ok);
      assert.deepEqual(copied.path, ['outer']);
      assert.equal(copied.reason, 'not_json');
    }
  });

  it('stops at the depth and size limits with the path where it stopped', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = { k: deep };
    const tooDeep = copyJson(deep, { maxBytes: 1 << 20, maxDepth: 5 });
    assert.deepEqual(tooDeep, { ok: false, reason: 'too_deep', path: ['k', 'k', 'k', 'k', 'k'], detail: 'nesting deeper than 5' });
    const large = copyJson({ a: 'x'.repeat(100) }, { maxBytes: 50, maxDepth: 5 });
    assert.equal(large.ok, false);
    assert.ok(!large.ok);
    assert.equal(large.reason, 'too_large');
    // A value nested deeper than the call stack: refused, never a crash.
    let nested: unknown[] = [];
    const root = nested;
    for (let i = 0; i < 200_000; i++) {
      const next: unknown[] = [];
      nested.push(next);
      nested = next;
    }
    assert.equal(copyJson(root, { maxBytes: 1 << 30, maxDepth: 1e9 }).ok, false);
  });

  it('counts lone surrogates in string values as their escapes, as JSON.stringify writes them', () => {
    for (const text of ['\ud800', '\udc00', 'a\ud800b', '\ud83d\ude00', '\ude00\ud83d', '\ud800\ud800\udc00']) {
      const copied = copyJson({ k: text }, limits);
      assert.ok(copied.ok);
      assert.equal(copied.bytes, Buffer.byteLength(JSON.stringify({ k: text })), JSON.stringify(text));
    }
  });

  it('counts small integers, negative and fractional numbers as their JSON text', () => {
    for (const value of [0, -0, 7, 10, 99, 100, 999_999, 1_000_000, -5, 0.5, 1e21, 2 ** 53, -1e-7, 123456.789]) {
      const copied = copyJson([value], limits);
      assert.ok(copied.ok);
      assert.equal(copied.bytes, JSON.stringify([value]).length, String(value));
    }
  });

  it('finds a `pattern` or `patternProperties` key wherever it stands, as hasPatternKeys does (fast-check, real tools)', () => {
    // Keys drawn mostly from the two names and their near misses, so both answers come up often.
    const key = fc.constantFrom('pattern', 'patternProperties', 'Pattern', 'patterns', 'type', 'properties', 'x');
    const tree = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
      object: fc.dictionary(key, tie('value'), { maxKeys: 3 }),
    })).value;
    let found = 0;
    fc.assert(
      fc.property(tree, (value) => {
        const copied = copyJson(value, limits);
        assert.ok(copied.ok);
        assert.equal(copied.patternKeys, hasPatternKeys(value));
        if (copied.patternKeys) found++;
      }),
      { numRuns: 1_000, seed: 20261205 },
    );
    assert.ok(found > 100 && found < 900, `${found} of 1,000 with a pattern key`);
    // Under a property name, inside a constant: over-approximated alike. A key whose value is undefined is not copied.
    const cases: [unknown, boolean][] = [
      [{ properties: { pattern: { type: 'string' } } }, true],
      [{ const: [{ patternProperties: 1 }] }, true],
      [{ type: 'string', description: 'pattern' }, false],
      [{ pattern: undefined }, false],
    ];
    for (const [value, expected] of cases) {
      const copied = copyJson(value, limits);
      assert.ok(copied.ok);
      assert.equal(copied.patternKeys, expected, JSON.stringify(value));
    }
    const dir = new URL('../../fixtures/real-world/servers/', import.meta.url);
    const answers = { true: 0, false: 0 };
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const { result } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { result: { tools: Record<string, unknown>[] } };
      for (const tool of result.tools)
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          if (schema === undefined) continue;
          const copied = copyJson(schema, limits);
          assert.ok(copied.ok);
          assert.equal(copied.patternKeys, hasPatternKeys(schema), `${file} ${String(tool.name)}`);
          answers[copied.patternKeys ? 'true' : 'false']++;
        }
    }
    assert.ok(answers.true > 0 && answers.false > 0, JSON.stringify(answers));
  });
});
