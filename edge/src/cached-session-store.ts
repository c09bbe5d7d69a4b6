import type { ListPage, SessionStore, StoredTool } from './session-store.ts';
import type { ListKey, ToolCache } from './tool-cache.ts';

/**
 * A session store whose tool lookups try the isolate's cache first: this state key's own list, then the Durable
 * Object (adopted into the cache). Nothing else: a list seen under another credential or session, even one marked
 * `cacheScope: "public"`, never answers for this key. Tools are written to both, with their expiry, and a first page
 * replaces the key's list in both, so another isolate finds them too and a dropped tool is gone; stale tools count
 * as unknown, so the gateway lists again. Elicitations always go to the store: an answer may land on another isolate.
 */
export function withToolCache(store: SessionStore, cache: ToolCache, key: ListKey): SessionStore {
  return {
    async putTools(tools: readonly StoredTool[], page: ListPage): Promise<void> {
      await store.putTools(cache.remember(key, tools, page), page);
    },
    async getTool(name: string): Promise<StoredTool | undefined> {
      const cached = cache.own(key, name);
      if (cached !== undefined) return cached;
      const stored = await store.getTool(name);
      if (stored === undefined || cache.expired(stored)) return undefined;
      cache.adopt(key, stored);
      return stored;
    },
    putElicitation: (id, requestedSchema) => store.putElicitation(id, requestedSchema),
    takeElicitation: (id) => store.takeElicitation(id),
    async clear(): Promise<void> {
      cache.forget(key);
      await store.clear();
    },
  };
}
