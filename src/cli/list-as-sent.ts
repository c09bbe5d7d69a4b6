import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * The v2 SDK client checks every `tools/list` result against the spec's wire schema before a caller's result schema
 * sees it, so one malformed tool (no `inputSchema`, a `"type":"string"` root) fails the whole listing with a zod
 * dump. `listAsSent` keeps the result as the server sent it: after `connect`, it hands the client each complete
 * `tools/list` answer with no tools and no cursor and keeps the real one beside it, under a symbol the client copies along; the
 * result schema `asSent` gives that back. Then every tool is judged by the engine, one verdict each.
 */
const asSentKey = Symbol('tools/list result as sent');

/** Call after `client.connect(transport)`: the client has set `onmessage` by then. */
export function listAsSent(transport: Transport): void {
  const listIds = new Set<unknown>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (method === 'tools/list' && id !== undefined) listIds.add(id);
    return send(message, options);
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const { id, result } = message as { id?: unknown; result?: unknown };
    const resultType = (result as { resultType?: unknown } | null | undefined)?.resultType;
    const complete = resultType === undefined || resultType === 'complete';
    if (id !== undefined && listIds.delete(id) && complete && typeof result === 'object' && result !== null && !Array.isArray(result)) {
      // The rest (resultType, ttlMs, cacheScope, _meta) is still the client's to check; the cursor is the caller's.
      const { nextCursor: _cursor, ...rest } = result as Record<string, unknown>;
      const stand = { ...rest, tools: [], [asSentKey]: result };
      deliver?.({ ...message, result: stand } as JSONRPCMessage, extra);
      return;
    }
    deliver?.(message, extra);
  };
}

/** The result as the server sent it (the client's copy of the stand-in carries it along), else the value itself. */
export const resultAsSent = (value: unknown): unknown =>
  (typeof value === 'object' && value !== null ? (value as { [asSentKey]?: unknown })[asSentKey] : undefined) ?? value;
