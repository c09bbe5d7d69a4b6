import { createLruCache } from '../../../src/engine/core/index.ts';
import type { ToolVerdict } from '../../../src/protocol/tool.ts';
import type { ListHints } from './state-types.ts';

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

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range starts at U+0000 on purpose.
const nonAscii = /[^\x00-\x7f]/;

/**
 * Heap a string holds, in bytes: its UTF-8 length, or two bytes per UTF-16 unit when V8 must store it two bytes wide
 * (a unit above U+00FF), whichever is more. UTF-8 alone would undercount an ASCII text with one `€` in it by half.
 */
export function textBytes(text: string): number {
  // Most texts are ASCII: a native scan, then no loop (it also flattens a concatenated string, as it is kept).
  if (!nonAscii.test(text)) return text.length;
  let utf8 = 0;
  let wide = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) utf8 += 1;
    else if (code < 0x800) {
      utf8 += 2;
      if (code > 0xff) wide = true;
    } else {
      wide = true;
      const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      utf8 += pair ? 4 : 3;
      if (pair) i++;
    }
  }
  return wide ? Math.max(utf8, 2 * text.length) : utf8;
}

/** Heap of a small plain-data value (a verdict): its strings, and a slot or a header for everything else. */
function dataBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + textBytes(value);
  if (typeof value !== 'object' || value === null || depth > 16) return 8;
  let bytes = 32;
  // Index and key loops, not Object.entries: a list of 10,000 tools weighs 10,000 verdicts.
  if (Array.isArray(value)) {
    for (const item of value) bytes += 8 + dataBytes(item, depth + 1);
    return bytes;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (Object.hasOwn(record, key)) bytes += textBytes(key) + 8 + dataBytes(record[key], depth + 1);
  return bytes;
}

/**
 * The record, its verdict's objects and their map entries, besides the strings counted: what V8 keeps per small tool
 * beyond its texts, measured after GC (edge/test/gateway/gateway-state-bounds.test.ts checks the sum against the heap).
 */
const storedToolOverhead = 352;

/**
 * Bytes a stored tool retains: its definition text (what an upstream makes large), its name, its verdict (a refusal
 * message may quote a long `$ref` or pattern) and a fixed cost per record. What the caches count against `maxBytes`.
 */
export function storedToolBytes(tool: StoredTool): number {
  let bytes = weighedTools.get(tool);
  if (bytes === undefined) {
    bytes = storedToolOverhead + textBytes(tool.name) + textBytes(tool.definition) + verdictBytes(tool.verdict);
    weighedTools.set(tool, bytes);
  }
  return bytes;
}

/**
 * A tool is weighed by the session-store wrapper, the isolate cache and the Durable Object rows: once per record. A
 * record is never changed (they are readonly), so its weight cannot go stale.
 */
const weighedTools = new WeakMap<StoredTool, number>();

/** `tool` stamped with when its list goes stale; the stamp is not weighed, so the copy keeps the tool's weight. */
export function withExpiry(tool: StoredTool, expiresAt: number): StoredTool {
  const stamped = { ...tool, expiresAt };
  weighedTools.set(stamped, storedToolBytes(tool));
  return stamped;
}

/** A verdict's `dataBytes`, once per verdict object: the engine hands the same verdict to every list that repeats a tool. */
const weighedVerdicts = new WeakMap<ToolVerdict, number>();

function verdictBytes(verdict: ToolVerdict): number {
  let bytes = weighedVerdicts.get(verdict);
  if (bytes === undefined) {
    bytes = dataBytes(verdict);
    weighedVerdicts.set(verdict, bytes);
  }
  return bytes;
}

/**
 * The most one state key may hold of tools, as `storedToolBytes` counts them (8 MiB): twice the default
 * `UPSTREAM_MAX_BYTES`, so any list that passes it can be kept (a definition is at most its tool's bytes; each record
 * adds a verdict, a few hundred bytes, at most 10,000 tools), and a quarter of workerd's 32 MiB limit on one RPC's
 * arguments, which a page sent to the Durable Object must stay under. Past it the store keeps none of the list and
 * refuses `state_too_large` (docs/edge.md, "Session state and caches").
 */
export const maxStateBytes = 8 * 1024 * 1024;

/** Thrown by a store whose state key would hold more than its bound; the message starts with `state_too_large`. */
export function stateTooLarge(bytes: number, max: number): Error {
  return new Error(`state_too_large: this state key's tools would take ${bytes} bytes: over ${max}`);
}

/** Whether a store's failure (possibly rethrown across Workers RPC, which keeps only the message) is its bound. */
export function isStateTooLarge(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('state_too_large:');
}

/** `tools`' bytes as `storedToolBytes` counts them. */
export function toolsBytes(tools: readonly StoredTool[]): number {
  let bytes = 0;
  for (const tool of tools) bytes += storedToolBytes(tool);
  return bytes;
}

/**
 * The shape of the records `packTool` writes, kept in each record. A row without it (one written before verdicts
 * were told apart by `status`, which a Durable Object may hold for a day) or with another reads as missing, never as
 * an accepted tool: the gateway lists the tools again.
 */
export const storedToolFormat = 2;

/**
 * A stored tool as a Durable Object row keeps it: the name once (the row's key), not again in the record or the
 * verdict, and the record's `format`. `unpackTool` puts it back.
 */
export function packTool(tool: StoredTool): string {
  const { name: _name, verdict, ...rest } = tool;
  const { name: _verdictName, ...verdictRest } = verdict;
  return JSON.stringify({ format: storedToolFormat, ...rest, verdict: verdictRest });
}

/** A row's tool; undefined for a record of another `format` (or without one), so it fails closed as unknown. */
export function unpackTool(name: string, record: string): StoredTool | undefined {
  const parsed = JSON.parse(record) as { format?: unknown; verdict?: unknown };
  if (parsed === null || typeof parsed !== 'object' || parsed.format !== storedToolFormat) return undefined;
  const { format: _format, verdict, ...rest } = parsed;
  const status = (verdict as { status?: unknown } | null | undefined)?.status;
  if (status !== 'accepted' && status !== 'refused') return undefined;
  return { ...rest, name, verdict: { ...(verdict as Omit<ToolVerdict, 'name'>), name } } as StoredTool;
}

export interface MemorySessionStoresOptions {
  /** Most state keys kept; the least recently used go first (default 10,000). */
  readonly maxSessions?: number;
  /** Most bytes of tools, forms and keys kept across all sessions (`storedToolBytes`, `textBytes`; default 8 MiB). */
  readonly maxBytes?: number;
  /** Most bytes of tools one state key may hold (`storedToolBytes`; default `maxStateBytes`); past it `state_too_large`. */
  readonly maxStateBytes?: number;
}

/** What a memory session store holds, for tests and stats. */
export interface MemorySessionStats {
  readonly sessions: number;
  readonly bytes: number;
  readonly evictions: number;
}

/** Sessions in memory, for tests and single-process use: bounded by count and by retained bytes, like every cache here. */
export function createMemorySessionStores(options: MemorySessionStoresOptions = {}): SessionStores & {
  stats(): MemorySessionStats;
} {
  const maxSessions = options.maxSessions ?? 10_000;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const maxKeyBytes = options.maxStateBytes ?? maxStateBytes;
  interface Session {
    readonly tools: Map<string, { tool: StoredTool; bytes: number }>;
    readonly elicitations: Map<string, string>;
    bytes: number;
    toolBytes: number;
  }
  // A session's bytes change after it is stored, so they are summed here and the bounds applied by `trim`.
  let total = 0;
  let evictions = 0;
  const sessions = createLruCache<string, Session>(Number.POSITIVE_INFINITY, undefined, {
    onDrop: (_, dropped) => {
      total -= dropped.bytes;
    },
  });
  const sessionOverhead = 256;

  /** The key's session, created if need be, as the most recently used. */
  const session = (key: string): Session => {
    let found = sessions.get(key);
    if (found === undefined) {
      found = { tools: new Map(), elicitations: new Map(), bytes: sessionOverhead + textBytes(key), toolBytes: 0 };
      total += found.bytes;
      sessions.set(key, found);
    }
    return found;
  };
  const grow = (target: Session, bytes: number): void => {
    target.bytes += bytes;
    total += bytes;
  };
  const evict = (): void => {
    evictions += sessions.trim(() => sessions.size > maxSessions || total > maxBytes);
  };

  const stores = (key: string): SessionStore => ({
    putTools: async (tools, page) => {
      const target = session(key);
      const clearTools = (): void => {
        grow(target, -target.toolBytes);
        target.toolBytes = 0;
        target.tools.clear();
      };
      if (page.first) clearTools();
      for (const tool of tools) {
        const bytes = storedToolBytes(tool);
        const delta = bytes - (target.tools.get(tool.name)?.bytes ?? 0);
        grow(target, delta);
        target.toolBytes += delta;
        target.tools.set(tool.name, { tool, bytes });
      }
      if (target.toolBytes > maxKeyBytes) {
        // None of the list is kept: a part of it would serve calls as if the rest did not exist.
        const bytes = target.toolBytes;
        clearTools();
        throw stateTooLarge(bytes, maxKeyBytes);
      }
      evict();
    },
    getTool: async (name) => sessions.peek(key)?.tools.get(name)?.tool,
    putElicitation: async (id, schema) => {
      const target = session(key);
      const before = target.elicitations.get(id);
      grow(target, textBytes(id) + textBytes(schema) - (before === undefined ? 0 : textBytes(id) + textBytes(before)));
      target.elicitations.set(id, schema);
      evict();
    },
    takeElicitation: async (id) => {
      const target = sessions.peek(key);
      const schema = target?.elicitations.get(id);
      if (target === undefined || schema === undefined) return undefined;
      target.elicitations.delete(id);
      grow(target, -(textBytes(id) + textBytes(schema)));
      return schema;
    },
    clear: async () => {
      sessions.delete(key);
    },
  });
  return Object.assign(stores, { stats: () => ({ sessions: sessions.size, bytes: total, evictions }) });
}
