// The one LRU (src/engine/core/lru-cache.ts) beyond get/set: reads that leave the order alone, removal, and a trim
// by the caller's own bounds, which the edge's session store and tool cache apply.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLruCache } from '../../../src/engine/core/index.ts';
import { exactBelow } from '../../../src/engine/core/lru-cache.ts';

describe('createLruCache: peek, delete, trim', () => {
  it('peek reads a value without making it the most recently used', () => {
    const cache = createLruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.peek('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.peek('a'), undefined);
    assert.equal(cache.peek('b'), 2);
  });

  it('says why each entry left: replaced, deleted or evicted', () => {
    const dropped: string[] = [];
    const cache = createLruCache<string, number>(
      2,
      { maxWeight: 100, weigh: (value) => value },
      {
        onDrop: (key, value, reason) => dropped.push(`${key}=${value} ${reason}`),
      },
    );
    cache.set('a', 1);
    cache.set('a', 2);
    cache.set('b', 3);
    assert.equal(cache.delete('b'), true);
    assert.equal(cache.delete('b'), false);
    cache.set('c', 4);
    cache.set('d', 5);
    assert.deepEqual(dropped, ['a=1 replaced', 'b=3 deleted', 'a=2 evicted']);
    assert.equal(cache.weight, 9);
  });

  it('trim drops the least recently used while the bound holds, the newest too, and counts them', () => {
    const cache = createLruCache<string, number>(Number.POSITIVE_INFINITY, { maxWeight: Number.POSITIVE_INFINITY, weigh: (v) => v });
    for (const [key, value] of [
      ['a', 5],
      ['b', 5],
      ['c', 5],
    ] as const)
      cache.set(key, value);
    cache.get('a');
    assert.equal(
      cache.trim(() => cache.weight > 5),
      2,
    );
    assert.equal(cache.peek('a'), 5);
    assert.equal(
      cache.trim(() => true),
      1,
    );
    assert.equal(cache.size, 0);
    assert.equal(cache.weight, 0);
  });

  it('below exactBelow entries a read makes a key the most recently used, so the other is evicted', () => {
    const cache = createLruCache<string, number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 0);
    cache.get('b');
    cache.set('d', 0);
    cache.set('e', 0);
    assert.deepEqual([cache.peek('a'), cache.peek('c')], [undefined, undefined]);
    assert.equal(cache.peek('b'), 0);
  });

  it('in a large cache a read key is passed over once by eviction, then goes when its turn comes again', () => {
    const size = exactBelow * 2;
    const cache = createLruCache<number, number>(size);
    for (let key = 0; key < size; key++) cache.set(key, key);
    assert.equal(cache.get(0), 0);
    // The first eviction passes over 0 (read) and puts it behind the key just set; 1 goes instead.
    cache.set(size, size);
    assert.deepEqual([cache.peek(0), cache.peek(1)], [0, undefined]);
    for (let key = size + 1; key < size * 2; key++) cache.set(key, key);
    assert.equal(cache.peek(0), 0, 'the key read during the first fill outlived the rest of it');
    cache.set(size * 2, 0);
    assert.equal(cache.peek(size), undefined, 'the key set before it was passed over goes first');
    cache.set(size * 2 + 1, 0);
    assert.equal(cache.peek(0), undefined, 'and then it goes: no read since it moved');
  });

  it('in a large cache a read only marks its key: a pass over every key reorders nothing', () => {
    const size = exactBelow * 2;
    const dropped: number[] = [];
    const cache = createLruCache<number, number>(size, undefined, { onDrop: (key) => dropped.push(key) });
    for (let key = 0; key < size; key++) cache.set(key, key);
    for (let key = 0; key < size; key++) cache.get(key);
    for (let key = 0; key < size; key++) assert.equal(cache.get(key), key);
    // Every key was read: eviction passes over each once, in the order they were set, and evicts the first again.
    cache.set(size, size);
    assert.deepEqual(dropped, [0]);
    assert.equal(cache.size, size);
  });

  it('keeps the newest entry over the weight limit, and a cache of no entries keeps none', () => {
    const weighed = createLruCache<string, number>(exactBelow * 2, { maxWeight: 10, weigh: (value) => value });
    for (let i = 0; i < exactBelow; i++) weighed.set(`k${i}`, 0);
    for (let i = 0; i < exactBelow; i++) weighed.get(`k${i}`);
    weighed.set('heavy', 50);
    assert.deepEqual([weighed.size, weighed.peek('heavy')], [1, 50]);
    const none = createLruCache<string, number>(0);
    none.set('a', 1);
    assert.equal(none.size, 0);
  });

  it('in a large cache a key read at least once between two evictions that reach it is never evicted', () => {
    const size = exactBelow * 2;
    const cache = createLruCache<number, number>(size);
    cache.set(-1, -1);
    for (let key = 0; key < size * 20; key++) {
      cache.set(key, key);
      if (key % (size / 2 - 1) === 0) assert.equal(cache.get(-1), -1, `after ${key} inserts`);
    }
    assert.equal(cache.size, size);
    assert.equal(cache.peek(size * 20 - size - 1), undefined, 'while the cold keys go in order');
    assert.equal(cache.peek(size * 20 - size + 1), size * 20 - size + 1);
  });
});

describe('createLruCache: handles', () => {
  it('touch marks a key used as get does, below exactBelow entries and above', () => {
    const small = createLruCache<string, number>(3);
    for (const key of ['a', 'b', 'c']) small.set(key, key.charCodeAt(0));
    const a = small.handle('a');
    assert.ok(a !== undefined);
    assert.equal(small.touch(a), 97);
    small.set('d', 0);
    assert.deepEqual([small.peek('a'), small.peek('b')], [97, undefined], 'b went, not the touched a');

    const size = exactBelow * 2;
    const large = createLruCache<number, number>(size);
    for (let key = 0; key < size; key++) large.set(key, key);
    const first = large.handle(0);
    assert.ok(first !== undefined);
    assert.equal(large.touch(first), 0);
    large.set(size, size);
    assert.deepEqual([large.peek(0), large.peek(1)], [0, undefined], 'the touched key had its second chance');
  });

  it('a handle whose entry has left touches nothing, even once its key is set again', () => {
    const dropped: string[] = [];
    const cache = createLruCache<string, number>(2, undefined, { onDrop: (key, _, reason) => dropped.push(`${key} ${reason}`) });
    cache.set('a', 1);
    const deleted = cache.handle('a');
    assert.ok(deleted !== undefined);
    cache.delete('a');
    assert.equal(cache.touch(deleted), undefined);
    cache.set('a', 2);
    const replaced = cache.handle('a');
    assert.ok(replaced !== undefined);
    cache.set('a', 3);
    assert.equal(cache.touch(replaced), undefined, 'replaced');
    assert.equal(cache.touch(deleted), undefined, 'the key is back, but not that entry');
    cache.set('b', 4);
    const evicted = cache.handle('a');
    assert.ok(evicted !== undefined);
    cache.set('c', 5);
    assert.equal(cache.touch(evicted), undefined, 'evicted');
    assert.equal(cache.size, 2, 'touching a gone entry put nothing back');
    assert.deepEqual(dropped, ['a deleted', 'a replaced', 'a evicted']);
    assert.equal(cache.handle('zzz'), undefined);
  });
});
