import { createStore, get, set, type UseStore } from 'idb-keyval';
import type { ToolVerdict } from '../protocol/tool.ts';
import type { VerdictCache } from './verdict-cache.ts';

/**
 * Tool verdicts in IndexedDB through idb-keyval, in a store of their own, so a reloaded page knows which tools are
 * refused without recompiling. A failing IndexedDB (private mode, quota) degrades to no cache, never to an error.
 */
export function createIdbVerdictCache(store: UseStore = createStore('schemaval', 'tool-verdicts')): VerdictCache {
  return {
    async get(key) {
      try {
        return await get<ToolVerdict>(key, store);
      } catch {
        return undefined;
      }
    },
    async set(key, verdict) {
      try {
        await set(key, verdict, store);
      } catch {
        // a cache that cannot write is only slower
      }
    },
  };
}
