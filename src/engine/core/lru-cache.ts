/**
 * A least-recently-used map bounded by entry count and, optionally, by a total weight (an estimate of memory). The
 * one recency cache of the package (issue #19): engine, host and edge caches are built on it.
 */
export interface LruCache<K, V> {
  /** The value of `key`, which becomes the most recently used. */
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

/** Creates an LRU cache; a Map keeps insertion order, so the first key is the least recently used. */
export function createLruCache<K, V>(capacity: number, limit?: LruWeightLimit<K, V>, options: LruOptions<K, V> = {}): LruCache<K, V> {
  const entries = new Map<K, V>();
  const weights = new Map<K, number>();
  let total = 0;
  // The most recently used key is already last: a hot key (one tool called again and again) skips the reordering.
  let newest: K | undefined;
  const drop = (key: K, reason: LruDropReason): boolean => {
    const value = entries.get(key);
    if (value === undefined) return false;
    entries.delete(key);
    total -= weights.get(key) ?? 0;
    weights.delete(key);
    options.onDrop?.(key, value, reason);
    return true;
  };
  const dropOldest = (): void => void drop(entries.keys().next().value as K, 'evicted');
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined || key === newest) return value;
      entries.delete(key);
      entries.set(key, value);
      newest = key;
      return value;
    },
    peek: (key) => entries.get(key),
    set(key, value) {
      drop(key, 'replaced');
      entries.set(key, value);
      if (limit !== undefined) {
        const weight = limit.weigh(value, key);
        weights.set(key, weight);
        total += weight;
      }
      newest = key;
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
