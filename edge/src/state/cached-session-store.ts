import { GatewayStateError } from '../rpc/gateway-error.ts';
import { isStateTooLarge, type ListPage, maxStateBytes, type SessionStore, type StoredTool, toolsBytes } from './session-store.ts';
import type { ListKey, ToolCache } from './tool-cache.ts';

/**
 * A session store whose tool lookups try the isolate's cache first: this state key's own list, then the Durable
 * Object (adopted into the cache). Nothing else: a list seen under another credential or session, even one marked
 * `cacheScope: "public"`, never answers for this key. Tools are written to both, with their expiry, and a first page
 * replaces the key's list in both, so another isolate finds them too and a dropped tool is gone; stale tools count
 * as unknown, so the gateway lists again. Elicitations always go to the store: an answer may land on another isolate.
 *
 * Writes fail closed with a `GatewayStateError`, which the gateway answers as a JSON-RPC error: a page over
 * `maxStateBytes` is refused before it is sent (so no RPC nears workerd's 32 MiB argument limit), and the key's
 * list is emptied in both places; a store that refuses or fails (its own bound on the whole list, the RPC limit,
 * a Durable Object error) drops the key's list from the cache, so nothing half-written serves a call.
 */
export function withToolCache(store: SessionStore, cache: ToolCache, key: ListKey, maxBytes = maxStateBytes): SessionStore {
  const failed = (error: unknown): GatewayStateError =>
    isStateTooLarge(error)
      ? new GatewayStateError('state_too_large', `the gateway cannot keep this tool list: ${(error as Error).message.slice(17)}`)
      : new GatewayStateError('state_unavailable', 'the gateway could not store this session state');
  return {
    async putTools(tools: readonly StoredTool[], page: ListPage): Promise<void> {
      const bytes = toolsBytes(tools);
      if (bytes > maxBytes) {
        cache.forget(key);
        // The key's previous list must not answer for the newer one: replaced by nothing (best effort).
        await store.putTools([], { first: true }).catch(() => undefined);
        throw new GatewayStateError(
          'state_too_large',
          `the gateway cannot keep this tool list: its tools would take ${bytes} bytes of session state: over ${maxBytes}`,
        );
      }
      try {
        await store.putTools(cache.remember(key, tools, page), page);
      } catch (error) {
        cache.forget(key);
        // The store refused the list as a whole (its pages add up past the bound): make sure it keeps none of it.
        if (isStateTooLarge(error)) await store.putTools([], { first: true }).catch(() => undefined);
        throw failed(error);
      }
    },
    async getTool(name: string): Promise<StoredTool | undefined> {
      const cached = cache.own(key, name);
      if (cached !== undefined) return cached;
      const stored = await store.getTool(name);
      if (stored === undefined || cache.expired(stored)) return undefined;
      cache.adopt(key, stored);
      return stored;
    },
    async putElicitation(id, requestedSchema) {
      try {
        await store.putElicitation(id, requestedSchema);
      } catch (error) {
        throw failed(error);
      }
    },
    takeElicitation: (id) => store.takeElicitation(id),
    async clear(): Promise<void> {
      cache.forget(key);
      await store.clear();
    },
  };
}
