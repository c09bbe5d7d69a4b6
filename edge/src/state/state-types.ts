// Types the session stores and the tool cache share.

/** The caching fields of a 2026-07-28 `tools/list` result (`CacheableResult`); absent before that revision. */
export interface ListHints {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}
