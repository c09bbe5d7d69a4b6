/**
 * A least-recently-used map bounded by entry count and, optionally, by a total weight (an estimate of memory). The
 * one recency cache of the package (issue #19): engine, host and edge caches are built on it.
 */
export interface LruCache<K, V> {
  /**
   * The value of `key`, which becomes the most recently used. In a cache of `exactBelow` entries or more, it is only
   * marked as read, and moves when eviction reaches it (see `createLruCache`).
   */
  get(key: K): V | undefined;
  /** The value of `key`, leaving the order alone: a read that should not keep an entry alive. */
  peek(key: K): V | undefined;
  /** A handle on `key`'s entry as it is now, for `touch`; undefined when the key is not cached. */
  handle(key: K): LruHandle<K, V> | undefined;
  /**
   * Marks the entry behind a handle used, as `get` would, and returns its value: in a cache of `exactBelow`
   * entries or more without looking its key up. Undefined when the entry has left since (evicted, replaced, deleted).
   */
  touch(handle: LruHandle<K, V>): V | undefined;
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

/** An entry of one cache, as `handle` gave it out: its key and value, kept after it leaves; `touch` marks it used. */
export interface LruHandle<K, V> {
  readonly key: K;
  readonly value: V;
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
 * From this many entries on, `get` only marks a key as read, and eviction gives a marked key a second chance: it
 * moves to the end of the order, unmarked, and the next key is considered (the CLOCK approximation of LRU). A call to
 * each of 1,728 tools in turn otherwise moved a key (a Map delete and insert) on every call. A key read since it was
 * last put at the end is never the one evicted; among keys not read since, the oldest goes first. Below it, the
 * order is exact: each read moves its key to the end.
 */
export const exactBelow = 64;

interface Entry<K, V> {
  readonly key: K;
  readonly value: V;
  readonly weight: number;
  /** The move that last put this key at the end of the order; -1 once the entry has left (a handle then touches nothing). */
  at: number;
  /** Read since it was last put at the end (a cache of `exactBelow` entries or more). */
  read: boolean;
}

/** Creates an LRU cache; a Map keeps insertion order, so the first key is the least recently used. */
export function createLruCache<K, V>(capacity: number, limit?: LruWeightLimit<K, V>, options: LruOptions<K, V> = {}): LruCache<K, V> {
  const entries = new Map<K, Entry<K, V>>();
  let total = 0;
  // Keys put at the end of the order so far: a key moved fewer than `size / 2` moves ago is in the newer half.
  let moves = 0;
  const drop = (key: K, reason: LruDropReason): boolean => {
    const entry = entries.get(key);
    if (entry === undefined) return false;
    entries.delete(key);
    entry.at = -1;
    total -= entry.weight;
    options.onDrop?.(key, entry.value, reason);
    return true;
  };
  /** Evicts the oldest key not read since it was put at the end, passing over `keep` (the key just set). */
  const dropOldest = (keep?: K): void => {
    for (const [key, entry] of entries) {
      if (!entry.read && key !== keep) {
        drop(key, 'evicted');
        return;
      }
      // A second chance (or the newest entry, which always stays): to the end, unmarked. Every key is passed over
      // at most once, so one more key in the order is always evicted.
      entry.read = false;
      entries.delete(key);
      entries.set(key, entry);
      entry.at = ++moves;
    }
  };
  const use = (entry: Entry<K, V>): V => {
    if (entries.size >= exactBelow) {
      entry.read = true;
      return entry.value;
    }
    // The newest key is already last (a hot key called again and again skips the reordering).
    if (entry.at === moves) return entry.value;
    entries.delete(entry.key);
    entries.set(entry.key, entry);
    entry.at = ++moves;
    return entry.value;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      return entry === undefined ? undefined : use(entry);
    },
    peek: (key) => entries.get(key)?.value,
    handle: (key) => entries.get(key),
    touch(handle) {
      const entry = handle as Entry<K, V>;
      return entry.at < 0 ? undefined : use(entry);
    },
    set(key, value) {
      drop(key, 'replaced');
      const weight = limit === undefined ? 0 : limit.weigh(value, key);
      entries.set(key, { key, value, weight, at: ++moves, read: false });
      total += weight;
      // A cache of no entries keeps none, not even the newest.
      if (entries.size > capacity) dropOldest(capacity > 0 ? key : undefined);
      // The newest entry always stays, even alone over the limit: it is about to be used.
      while (limit !== undefined && total > limit.maxWeight && entries.size > 1) dropOldest(key);
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
