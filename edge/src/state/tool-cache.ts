import { createLruCache } from '../../../src/engine/core/index.ts';
import { type ListPage, type StoredTool, storedToolBytes, textBytes, withExpiry } from './session-store.ts';
import type { ListHints } from './state-types.ts';

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
  /** Most tools held across all lists; the least recently used go first (default 10,000). */
  readonly maxTools?: number;
  /** Most lists (state keys) held (default 10,000). */
  readonly maxLists?: number;
  /** Most bytes held, as `storedToolBytes` counts tools plus each list's key (default 8 MiB, docs/edge.md budget). */
  readonly maxBytes?: number;
}

/** What the cache holds, by its own accounting. */
export interface ToolCacheStats {
  readonly tools: number;
  readonly lists: number;
  readonly bytes: number;
  /** Tools dropped to stay within `maxTools`, `maxLists` or `maxBytes` (not expiry or replacement). */
  readonly evictions: number;
}

export interface ToolCache {
  readonly now: () => number;
  /** Stamps each tool with its expiry and keeps it for `key`: a first page replaces `key`'s list, a later one adds. */
  remember(key: ListKey, tools: readonly StoredTool[], page: ListPage): StoredTool[];
  /** A fresh tool of `key`'s own list; undefined when this isolate has none. */
  own(key: ListKey, name: string): StoredTool | undefined;
  /** Keeps a tool read from the Durable Object for `key`, so the next call needs no round trip. */
  adopt(key: ListKey, tool: StoredTool): void;
  expired(tool: StoredTool): boolean;
  forget(key: ListKey): void;
  /** How many tools the cache holds (for tests and stats). */
  size(): number;
  stats(): ToolCacheStats;
}

/** A list the gateway fetched for a call must at least serve that call, so a `ttlMs` of 0 counts as this much. */
const minTtlMs = 1000;
/** An upstream cannot pin a verdict for longer than a Durable Object keeps an idle session. */
const maxTtlMs = 24 * 60 * 60 * 1000;
/** A list's own record and map entries, besides its key text (counted). */
const listOverhead = 256;
/**
 * A tool's entries in the recency map and its list's name map, besides its name and the record `storedToolBytes`
 * counts. A tool is found by its list, then its name: no key text per tool (10,000 tools of one list were 10,000
 * concatenated `upstream + state key + name` strings to build, hash and weigh on every list).
 */
const entryOverhead = 96;

/** Reads `ttlMs` and `cacheScope` from a `tools/list` result, ignoring values of the wrong type. */
export function listHints(result: Record<string, unknown>): ListHints {
  const { ttlMs, cacheScope } = result;
  return {
    ...(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 0 ? { ttlMs } : {}),
    ...(cacheScope === 'public' || cacheScope === 'private' ? { cacheScope } : {}),
  };
}

interface Entry {
  readonly list: string;
  readonly tool: StoredTool;
  readonly bytes: number;
}

interface HeldList {
  readonly names: Map<string, Entry>;
  readonly bytes: number;
}

/**
 * The isolate's tool verdicts per (upstream, credential scope, session): a `tools/call` whose tool this isolate has
 * seen is checked without a Durable Object round trip. A list serves its own state key only, whatever its
 * `cacheScope` (docs/edge.md, "Session state and caches"); a first page replaces the key's list; entries expire after
 * `ttlMs` (or the default); and the cache holds at most `maxTools` tools, `maxLists` lists and `maxBytes` bytes, the
 * least recently used tool going first.
 */
export function createToolCache(options: ToolCacheOptions = {}): ToolCache {
  const now = options.now ?? Date.now;
  const defaultTtlMs = options.defaultTtlMs ?? 5 * 60 * 1000;
  const maxTools = options.maxTools ?? 10_000;
  const maxLists = options.maxLists ?? 10_000;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const lists = new Map<string, HeldList>();
  /** The lists' own bytes; the tools' are the LRU's weight. */
  let listBytes = 0;
  let evictions = 0;
  // Tools in recency order, the least recently used first, each entry its own key (found through its list); the
  // bounds count lists too, so `trim` applies them.
  const entries = createLruCache<Entry, Entry>(
    Number.POSITIVE_INFINITY,
    { maxWeight: Number.POSITIVE_INFINITY, weigh: (entry) => entry.bytes },
    { onDrop: (entry) => unlist(entry) },
  );
  const bytes = (): number => entries.weight + listBytes;

  const listKey = (key: ListKey) => `${key.upstream}\n${key.stateKey}`;
  const expired = (tool: StoredTool) => tool.expiresAt !== undefined && now() >= tool.expiresAt;

  const dropList = (list: string): void => {
    // Dropping a list's last tool drops the list itself (below).
    for (const entry of [...(lists.get(list)?.names.values() ?? [])]) entries.delete(entry);
  };
  /** A tool left the cache: its list forgets it, unless a newer entry of that name took its place. */
  function unlist(entry: Entry): void {
    const list = lists.get(entry.list);
    if (list === undefined || list.names.get(entry.tool.name) !== entry) return;
    list.names.delete(entry.tool.name);
    // An empty list keeps nothing worth its key.
    if (list.names.size === 0) {
      lists.delete(entry.list);
      listBytes -= list.bytes;
    }
  }

  const put = (list: string, tools: readonly StoredTool[]): void => {
    if (tools.length === 0) return;
    let held = lists.get(list);
    if (held === undefined) {
      held = { names: new Map(), bytes: listOverhead + textBytes(list) };
      lists.set(list, held);
      listBytes += held.bytes;
    }
    for (const tool of tools) {
      const entry: Entry = { list, tool, bytes: entryOverhead + textBytes(tool.name) + storedToolBytes(tool) };
      const before = held.names.get(tool.name);
      // The new entry first, so the old one leaving does not empty (and drop) the list.
      held.names.set(tool.name, entry);
      if (before !== undefined) entries.delete(before);
      entries.set(entry, entry);
    }
    // The least recently used tools go first, whoever's they are; the page just put may lose its own first tools.
    evictions += entries.trim(() => entries.size > maxTools || lists.size > maxLists || bytes() > maxBytes);
  };

  return {
    now,
    remember(key, tools, page) {
      const ttl = Math.min(maxTtlMs, Math.max(minTtlMs, page.ttlMs ?? defaultTtlMs));
      const expiresAt = now() + ttl;
      const stamped = tools.map((tool) => withExpiry(tool, expiresAt));
      // A newer list replaces, never merges: a tool the upstream dropped is not callable from this isolate.
      if (page.first) dropList(listKey(key));
      put(listKey(key), stamped);
      return stamped;
    },
    own(key, name) {
      const entry = lists.get(listKey(key))?.names.get(name);
      if (entry === undefined) return undefined;
      if (expired(entry.tool)) {
        entries.delete(entry);
        return undefined;
      }
      entries.get(entry);
      return entry.tool;
    },
    adopt(key, tool) {
      if (!expired(tool)) put(listKey(key), [tool]);
    },
    expired,
    forget(key) {
      dropList(listKey(key));
    },
    size: () => entries.size,
    stats: () => ({ tools: entries.size, lists: lists.size, bytes: bytes(), evictions }),
  };
}
