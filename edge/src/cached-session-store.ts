import type { SessionStore, StoredTool } from './session-store.ts';
import type { ListHints, ListKey, ToolCache } from './tool-cache.ts';

/**
 * A session store whose tool lookups try the isolate's cache first: this state key's own list, then the
 * Durable Object (adopted into the cache), then a list the upstream marked public. Tools are written to both, with
 * their expiry, so another isolate finds them too; stale tools count as unknown, so the gateway lists again.
 * Elicitations always go to the store: an answer may land on another isolate.
 */
export function withToolCache(store: SessionStore, cache: ToolCache, key: ListKey): SessionStore {
  return {
    async putTools(tools: readonly StoredTool[], hints?: ListHints): Promise<void> {
      await store.putTools(cache.remember(key, tools, hints));
    },
    async getTool(name: string): Promise<StoredTool | undefined> {
      const cached = cache.own(key, name);
      if (cached !== undefined) return cached;
      const stored = await store.getTool(name);
      if (stored !== undefined && !cache.expired(stored)) {
        cache.adopt(key, stored);
        return stored;
      }
      return cache.shared(key, name);
    },
    putElicitation: (id, requestedSchema) => store.putElicitation(id, requestedSchema),
    takeElicitation: (id) => store.takeElicitation(id),
    async clear(): Promise<void> {
      cache.forget(key);
      await store.clear();
    },
  };
}
