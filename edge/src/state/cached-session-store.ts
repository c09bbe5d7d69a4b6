import { GatewayStateError } from '../rpc/gateway-error.ts';
import { isStateTooLarge, type ListPage, maxStateBytes, type SessionStore, type StoredTool, toolsBytes } from './session-store.ts';
import type { ListKey, ToolCache } from './tool-cache.ts';

/** Runs work after the response (workerd's `ctx.waitUntil`), so the client does not wait for it. */
export type Later = (work: Promise<unknown>) => void;

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
 * a Durable Object error) drops the key's list from the cache, so nothing half-written serves a call. With `later`
 * the store is written after the response: a list of 10,000 tools costs its Durable Object ~100-150 ms of rows and
 * RPC, which the client no longer waits for; the page bound above still refuses at once.
 */
export function withToolCache(store: SessionStore, cache: ToolCache, key: ListKey, maxBytes = maxStateBytes, later?: Later): SessionStore {
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
      const remembered = cache.remember(key, tools, page);
      const write = (): Promise<void> =>
        store.putTools(remembered, page).catch(async (error: unknown) => {
          cache.forget(key);
          // The store refused the list as a whole (its pages add up past the bound): make sure it keeps none of it.
          if (isStateTooLarge(error)) await store.putTools([], { first: true }).catch(() => undefined);
          throw failed(error);
        });
      if (later === undefined) return write();
      // This isolate answers from its cache at once; the Durable Object is written after the response (a timer, so
      // that even building its rows waits until the answer is out). Should that write fail, the cache forgets the
      // list (above), so the next call lists again: never a call on half a list.
      later(new Promise((resolve) => setTimeout(resolve, 0)).then(write).catch(() => undefined));
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
