/** A least-recently-used map with a fixed capacity. */
export interface LruCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}

/** Creates an LRU cache; a Map keeps insertion order, so the first key is the least recently used. */
export function createLruCache<K, V>(capacity: number): LruCache<K, V> {
  const entries = new Map<K, V>();
  // The most recently used key is already last: a hot key (one tool called again and again) skips the reordering.
  let newest: K | undefined;
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
      entries.delete(key);
      entries.set(key, value);
      newest = key;
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}
