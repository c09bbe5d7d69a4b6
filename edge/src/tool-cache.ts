import type { StoredTool } from './session-store.ts';

/** The caching fields of a 2026-07-28 `tools/list` result (`CacheableResult`); absent before that revision. */
export interface ListHints {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}

/** Where a list was seen: the upstream and the request's state key (`${credentialScope}:${sessionId}`). */
export interface ListKey {
  readonly upstream: string;
  readonly stateKey: string;
}

export interface ToolCacheOptions {
  /** Milliseconds since the epoch; injected so tests can move time. */
  readonly now?: () => number;
  /** Freshness of a list that names no `ttlMs` (2025-11-25 upstreams); default 5 minutes. */
  readonly defaultTtlMs?: number;
  /** Most tools held across all lists; the least recently used lists go first (default 10,000). */
  readonly maxTools?: number;
}

export interface ToolCache {
  readonly now: () => number;
  /** Stamps each tool with its expiry and remembers it for `key` (and for the whole upstream when public). */
  remember(key: ListKey, tools: readonly StoredTool[], hints?: ListHints): StoredTool[];
  /** A fresh tool of `key`'s own list; undefined when this isolate has none. */
  own(key: ListKey, name: string): StoredTool | undefined;
  /** A fresh tool of a list the upstream marked `public`, adopted into `key`'s own list when found. */
  shared(key: ListKey, name: string): StoredTool | undefined;
  /** Keeps a tool read from the Durable Object for `key`, so the next call needs no round trip. */
  adopt(key: ListKey, tool: StoredTool): void;
  expired(tool: StoredTool): boolean;
  forget(key: ListKey): void;
  /** How many tools the cache holds (for tests and stats). */
  size(): number;
}

/** A list the gateway fetched for a call must at least serve that call, so a `ttlMs` of 0 counts as this much. */
const minTtlMs = 1000;
/** An upstream cannot pin a verdict for longer than a Durable Object keeps an idle session. */
const maxTtlMs = 24 * 60 * 60 * 1000;

/** Reads `ttlMs` and `cacheScope` from a `tools/list` result, ignoring values of the wrong type. */
export function listHints(result: Record<string, unknown>): ListHints {
  const { ttlMs, cacheScope } = result;
  return {
    ...(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 0 ? { ttlMs } : {}),
    ...(cacheScope === 'public' || cacheScope === 'private' ? { cacheScope } : {}),
  };
}

/**
 * The isolate's tool verdicts per (upstream, credential scope, session): a `tools/call` whose tool this isolate has
 * seen is checked without a Durable Object round trip. A list is private to its state key unless the upstream marks
 * it `cacheScope: "public"`; entries expire after `ttlMs` (or the default) and the cache holds at most `maxTools`.
 */
export function createToolCache(options: ToolCacheOptions = {}): ToolCache {
  const now = options.now ?? Date.now;
  const defaultTtlMs = options.defaultTtlMs ?? 5 * 60 * 1000;
  const maxTools = options.maxTools ?? 10_000;
  // Map order is recency order: a list is re-inserted when used, and the oldest are evicted first.
  const lists = new Map<string, Map<string, StoredTool>>();
  let count = 0;

  const ownKey = (key: ListKey) => `${key.upstream}\n${key.stateKey}`;
  const publicKey = (key: ListKey) => `${key.upstream}\npublic`;
  const expired = (tool: StoredTool) => tool.expiresAt !== undefined && now() >= tool.expiresAt;

  const listOf = (mapKey: string, create: boolean): Map<string, StoredTool> | undefined => {
    const found = lists.get(mapKey);
    if (found !== undefined) {
      lists.delete(mapKey);
      lists.set(mapKey, found);
      return found;
    }
    if (!create) return undefined;
    const made = new Map<string, StoredTool>();
    lists.set(mapKey, made);
    return made;
  };

  const put = (mapKey: string, tools: readonly StoredTool[]): void => {
    const list = listOf(mapKey, true) as Map<string, StoredTool>;
    for (const tool of tools) {
      if (!list.has(tool.name)) count++;
      list.set(tool.name, tool);
    }
    for (const [oldest, list] of lists) {
      if (count <= maxTools) break;
      count -= list.size;
      lists.delete(oldest);
    }
  };

  const fresh = (mapKey: string, name: string): StoredTool | undefined => {
    const list = listOf(mapKey, false);
    const tool = list?.get(name);
    if (tool === undefined || !expired(tool)) return tool;
    list?.delete(name);
    count--;
    return undefined;
  };

  return {
    now,
    remember(key, tools, hints = {}) {
      const ttl = Math.min(maxTtlMs, Math.max(minTtlMs, hints.ttlMs ?? defaultTtlMs));
      const expiresAt = now() + ttl;
      const stamped = tools.map((tool) => ({ ...tool, expiresAt }));
      put(ownKey(key), stamped);
      if (hints.cacheScope === 'public') put(publicKey(key), stamped);
      return stamped;
    },
    own: (key, name) => fresh(ownKey(key), name),
    shared(key, name) {
      const tool = fresh(publicKey(key), name);
      if (tool !== undefined) put(ownKey(key), [tool]);
      return tool;
    },
    adopt(key, tool) {
      if (!expired(tool)) put(ownKey(key), [tool]);
    },
    expired,
    forget(key) {
      const list = lists.get(ownKey(key));
      if (list === undefined) return;
      count -= list.size;
      lists.delete(ownKey(key));
    },
    size: () => count,
  };
}
