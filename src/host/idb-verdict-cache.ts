import { createStore, entries, get, set, type UseStore } from 'idb-keyval';
import type { Refusal } from '../protocol/refusal.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import type { VerdictCache } from './verdict-cache.ts';

/** The IndexedDB verdict cache, which can also turn a cached tool into a refused one. */
export interface IdbVerdictCache extends VerdictCache {
  /**
   * Rewrites the cached verdicts of the tool with this fingerprint as refused on `side` (a schema found `too_slow`
   * after it was listed), so a reloaded page still refuses it. Returns how many entries changed.
   */
  refuse(fingerprint: string, side: 'input' | 'output', refusal: Refusal): Promise<number>;
}

/**
 * Tool verdicts in IndexedDB through idb-keyval, in a store of their own, so a reloaded page knows which tools are
 * refused without recompiling. A failing IndexedDB (private mode, quota) degrades to no cache, never to an error.
 */
export function createIdbVerdictCache(store: UseStore = createStore('schemaval', 'tool-verdicts')): IdbVerdictCache {
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
    async refuse(fingerprint, side, refusal) {
      if (fingerprint === '') return 0;
      try {
        // Keys end with the tool's fingerprint (engine, adapter and policy come first): every policy's entry.
        const cached = (await entries<IDBValidKey, ToolVerdict>(store)).filter(
          ([key, verdict]) => typeof key === 'string' && key.endsWith(`|${fingerprint}`) && verdict.verdict === 'accepted',
        );
        for (const [key, verdict] of cached) {
          await set(key, { ...verdict, verdict: 'refused', [side]: { ok: false, ...refusal } }, store);
        }
        return cached.length;
      } catch {
        return 0;
      }
    },
  };
}
