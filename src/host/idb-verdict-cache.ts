import { createStore, entries, get, set, type UseStore } from 'idb-keyval';
import type { Refusal } from '../protocol/refusal.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { isToolVerdict, type VerdictCache } from './verdict-cache.ts';

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
 * refused without recompiling. A failing IndexedDB (private mode, quota) degrades to no cache, never to an error;
 * a stored value that is not a well-formed verdict (an older shape, a damaged entry) is a miss.
 */
export function createIdbVerdictCache(store: UseStore = createStore('schemaval', 'tool-verdicts')): IdbVerdictCache {
  return {
    async get(key) {
      try {
        const stored = await get<unknown>(key, store);
        return isToolVerdict(stored) ? stored : undefined;
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
        // Keys end with the tool's fingerprint (format, engine, adapter and policy come first): every policy's entry.
        // Only well-formed verdicts: an entry of an older shape is never read, so it is left as it is.
        const cached = (await entries<IDBValidKey, unknown>(store)).filter(
          (entry): entry is [IDBValidKey, ToolVerdict] =>
            typeof entry[0] === 'string' &&
            entry[0].endsWith(`|${fingerprint}`) &&
            isToolVerdict(entry[1]) &&
            entry[1].status === 'accepted',
        );
        for (const [key, verdict] of cached) {
          const refused: ToolVerdict = { ...verdict, status: 'refused', [side]: { status: 'refused', refusal } };
          await set(key, refused, store);
        }
        return cached.length;
      } catch {
        return 0;
      }
    },
  };
}
