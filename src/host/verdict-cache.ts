import type { ToolVerdict } from '../protocol/tool.ts';

/** Where tool verdicts persist between pages or processes, keyed by fingerprint + adapter + policy + engine version. */
export interface VerdictCache {
  get(key: string): Promise<ToolVerdict | undefined>;
  set(key: string, verdict: ToolVerdict): Promise<void>;
}

/** A cache in memory (the default in Node): verdicts last as long as the process. */
export function createMemoryVerdictCache(): VerdictCache {
  const entries = new Map<string, ToolVerdict>();
  return {
    get: async (key) => entries.get(key),
    set: async (key, verdict) => {
      entries.set(key, verdict);
    },
  };
}
