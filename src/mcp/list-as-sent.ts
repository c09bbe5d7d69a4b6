/**
 * A transport as `listAsSent` needs it: what an MCP SDK transport (v1 or v2) has, without naming the SDK's types,
 * so this rule stays pure. Method syntax, so a transport with stricter message types fits.
 */
export interface MessageTransport {
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?(message: unknown, extra?: unknown): void;
}

const asSentKey = Symbol('tools/list result as sent');

/**
 * Keeps each `tools/list` result as the server sent it. The v2 SDK client checks every result against the spec's
 * wire schema before a caller's result schema sees it, so one malformed tool (no `inputSchema`, a `"type":"string"`
 * root) fails the whole listing with a zod dump. Called after `connect` (the client has set `onmessage` by then), it
 * hands the client each complete `tools/list` answer with no tools and no cursor, the real result kept beside it
 * under a symbol the client copies along; `resultAsSent` gives that back, and each tool is then judged on its own.
 * Used by the page (src/ui/connect.ts) and `schemaval lint --url` (src/cli/fetch-tools.ts).
 */
export function listAsSent(transport: MessageTransport): void {
  const listIds = new Set<unknown>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (method === 'tools/list' && id !== undefined) listIds.add(id);
    return send(message, options);
  };
  const deliver = transport.onmessage?.bind(transport);
  transport.onmessage = (message, extra) => {
    const { id, result } = message as { id?: unknown; result?: unknown };
    const resultType = (result as { resultType?: unknown } | null | undefined)?.resultType;
    const complete = resultType === undefined || resultType === 'complete';
    if (id !== undefined && listIds.delete(id) && complete && typeof result === 'object' && result !== null && !Array.isArray(result)) {
      // The rest (resultType, ttlMs, cacheScope, _meta) is still the client's to check; the cursor is the caller's.
      const { nextCursor: _cursor, ...rest } = result as Record<string, unknown>;
      deliver?.({ ...(message as object), result: { ...rest, tools: [], [asSentKey]: result } }, extra);
      return;
    }
    deliver?.(message, extra);
  };
}

/** The result as the server sent it (the client's copy of the stand-in carries it along), else the value itself. */
export const resultAsSent = (value: unknown): unknown =>
  (typeof value === 'object' && value !== null ? (value as { [asSentKey]?: unknown })[asSentKey] : undefined) ?? value;
