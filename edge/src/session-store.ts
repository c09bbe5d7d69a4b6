import type { ToolVerdict } from '../../src/protocol/tool.ts';
import type { ListHints } from './tool-cache.ts';

/** What the gateway remembers of a tool between requests (and isolates). */
export interface StoredTool {
  readonly name: string;
  readonly verdict: ToolVerdict;
  /** `{ name, inputSchema, outputSchema }` as lossless JSON text, so any isolate can compile it again. */
  readonly definition: string;
  readonly hasOutputSchema: boolean;
  /** When the list it came from goes stale (epoch ms; from `ttlMs` or the default), stamped by the tool cache. */
  readonly expiresAt?: number;
}

/**
 * One page of a `tools/list` result as the gateway stores it: `first` when it answers a request without a cursor,
 * so it starts a new list that replaces the previous one (a tool the upstream dropped is gone at once); a later
 * page adds to that list. `ttlMs` / `cacheScope` are the result's hints (used by the isolate cache).
 */
export interface ListPage extends ListHints {
  readonly first: boolean;
}

/** Per-session state: the session's tools and its pending elicitations (docs/architecture.md#edge). */
export interface SessionStore {
  /** Remembers a page of verdicts: a first page replaces the state key's tools, a later one adds to them. */
  putTools(tools: readonly StoredTool[], page: ListPage): Promise<void>;
  getTool(name: string): Promise<StoredTool | undefined>;
  /** Remembers the `requestedSchema` (lossless JSON text) of an elicitation sent to the client. */
  putElicitation(id: string, requestedSchema: string): Promise<void>;
  /** Returns and forgets the schema of an answered elicitation. */
  takeElicitation(id: string): Promise<string | undefined>;
  clear(): Promise<void>;
}

/**
 * Finds the store of a state key, `${credentialScope}:${Mcp-Session-Id ?? 'stateless'}` (see credential-scope.ts):
 * a Durable Object stub in workerd, a map in tests.
 */
export type SessionStores = (stateKey: string) => SessionStore;

/** Sessions in memory, for tests and single-process use. */
export function createMemorySessionStores(): SessionStores {
  const sessions = new Map<string, { tools: Map<string, StoredTool>; elicitations: Map<string, string> }>();
  return (key) => {
    const session = () => {
      let found = sessions.get(key);
      if (found === undefined) {
        found = { tools: new Map(), elicitations: new Map() };
        sessions.set(key, found);
      }
      return found;
    };
    return {
      putTools: async (tools, page) => {
        if (page.first) session().tools.clear();
        for (const tool of tools) session().tools.set(tool.name, tool);
      },
      getTool: async (name) => session().tools.get(name),
      putElicitation: async (id, schema) => {
        session().elicitations.set(id, schema);
      },
      takeElicitation: async (id) => {
        const schema = session().elicitations.get(id);
        session().elicitations.delete(id);
        return schema;
      },
      clear: async () => {
        sessions.delete(key);
      },
    };
  };
}
