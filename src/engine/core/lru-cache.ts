/** A least-recently-used map bounded by entry count and, optionally, by a total weight (an estimate of memory). */
export interface LruCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
  /** The summed weight of the entries (0 without a `weigh` function). */
  readonly weight: number;
}

export interface LruWeightLimit<K, V> {
  readonly maxWeight: number;
  readonly weigh: (value: V, key: K) => number;
}

export interface LruOptions<K, V> {
  /** Called for each entry that leaves the cache: evicted, or replaced by a `set` of the same key. */
  readonly onDrop?: (key: K, value: V) => void;
}

/** Creates an LRU cache; a Map keeps insertion order, so the first key is the least recently used. */
export function createLruCache<K, V>(capacity: number, limit?: LruWeightLimit<K, V>, options: LruOptions<K, V> = {}): LruCache<K, V> {
  const entries = new Map<K, V>();
  const weights = new Map<K, number>();
  let total = 0;
  // The most recently used key is already last: a hot key (one tool called again and again) skips the reordering.
  let newest: K | undefined;
  const drop = (key: K): void => {
    const value = entries.get(key);
    if (value === undefined) return;
    entries.delete(key);
    total -= weights.get(key) ?? 0;
    weights.delete(key);
    options.onDrop?.(key, value);
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined || key === newest) return value;
      entries.delete(key);
      entries.set(key, value);
      newest = key;
      return value;
    },
    set(key, value) {
      drop(key);
      entries.set(key, value);
      if (limit !== undefined) {
        const weight = limit.weigh(value, key);
        weights.set(key, weight);
        total += weight;
      }
      newest = key;
      if (entries.size > capacity) drop(entries.keys().next().value as K);
      // The newest entry always stays, even alone over the limit: it is about to be used.
      while (limit !== undefined && total > limit.maxWeight && entries.size > 1) drop(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return total;
    },
  };
}
