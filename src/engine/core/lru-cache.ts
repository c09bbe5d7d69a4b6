/**
 * A least-recently-used map bounded by entry count and, optionally, by a total weight (an estimate of memory). The
 * one recency cache of the package (issue #19): engine, host and edge caches are built on it.
 */
export interface LruCache<K, V> {
  /**
   * The value of `key`, which becomes the most recently used. In a cache of `exactBelow` entries or more, a key
   * already in the newer half of the order is left where it is (see `createLruCache`).
   */
  get(key: K): V | undefined;
  /** The value of `key`, leaving the order alone: a read that should not keep an entry alive. */
  peek(key: K): V | undefined;
  set(key: K, value: V): void;
  /** Removes `key` (`onDrop` says `deleted`); false when it was not there. */
  delete(key: K): boolean;
  /**
   * Drops the least recently used entries, the newest included, while `over()` holds, and says how many it dropped
   * (`onDrop` says `evicted`): for a cache whose bounds count more than its entries and their weights.
   */
  trim(over: () => boolean): number;
  readonly size: number;
  /** The summed weight of the entries (0 without a `weigh` function). */
  readonly weight: number;
}

export interface LruWeightLimit<K, V> {
  readonly maxWeight: number;
  readonly weigh: (value: V, key: K) => number;
}

/** Why an entry left: a bound or `trim` evicted it, a `set` of its key replaced it, or `delete` removed it. */
export type LruDropReason = 'evicted' | 'replaced' | 'deleted';

export interface LruOptions<K, V> {
  /** Called for each entry that leaves the cache. */
  readonly onDrop?: (key: K, value: V, reason: LruDropReason) => void;
}

/**
 * From this many entries on, `get` reorders only a key in the older half of the order. A call to each of 1,728 tools
 * in turn otherwise moves a key (a Map delete and insert) on every call: 5% of a valid call's cost. The order is
 * then nearly LRU: a key used again within half the cache's moves may sit behind keys used before it, but every
 * key used at least once in any `size / 2` moves (inserts and reorders) stays. Below it, the order is exact.
 */
export const exactBelow = 64;

interface Entry<V> {
  readonly value: V;
  readonly weight: number;
  /** The move that last put this key at the end of the order. */
  at: number;
}

/** Creates an LRU cache; a Map keeps insertion order, so the first key is the least recently used. */
export function createLruCache<K, V>(capacity: number, limit?: LruWeightLimit<K, V>, options: LruOptions<K, V> = {}): LruCache<K, V> {
  const entries = new Map<K, Entry<V>>();
  let total = 0;
  // Keys put at the end of the order so far: a key moved fewer than `size / 2` moves ago is in the newer half.
  let moves = 0;
  const drop = (key: K, reason: LruDropReason): boolean => {
    const entry = entries.get(key);
    if (entry === undefined) return false;
    entries.delete(key);
    total -= entry.weight;
    options.onDrop?.(key, entry.value, reason);
    return true;
  };
  const dropOldest = (): void => void drop(entries.keys().next().value as K, 'evicted');
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      // The newest key is already last (a hot key called again and again skips the reordering).
      const keep = entries.size >= exactBelow ? entries.size >> 1 : 1;
      if (moves - entry.at < keep) return entry.value;
      entries.delete(key);
      entries.set(key, entry);
      entry.at = ++moves;
      return entry.value;
    },
    peek: (key) => entries.get(key)?.value,
    set(key, value) {
      drop(key, 'replaced');
      const weight = limit === undefined ? 0 : limit.weigh(value, key);
      entries.set(key, { value, weight, at: ++moves });
      total += weight;
      if (entries.size > capacity) dropOldest();
      // The newest entry always stays, even alone over the limit: it is about to be used.
      while (limit !== undefined && total > limit.maxWeight && entries.size > 1) dropOldest();
    },
    delete: (key) => drop(key, 'deleted'),
    trim(over) {
      let dropped = 0;
      while (entries.size > 0 && over()) {
        dropOldest();
        dropped++;
      }
      return dropped;
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return total;
    },
  };
}
