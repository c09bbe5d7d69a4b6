// A raw MCP upstream for gateway tests: JSON answers, every tools/list with the same tools, every other request a
// call with an empty result; and a session-era POST to a gateway.

/** What the upstream saw: how many lists, and each call's arguments. */
export interface ListUpstreamSeen {
  lists: number;
  readonly calls: unknown[];
}

/** An upstream `fetch` that answers every `tools/list` with `tools()`, and counts what it was asked. */
export function createListUpstream(tools: () => readonly unknown[]): { readonly fetch: typeof fetch; readonly seen: ListUpstreamSeen } {
  const seen: ListUpstreamSeen = { lists: 0, calls: [] };
  const upstream = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const text = await new Request(input, init).text();
    const message = JSON.parse(text === '' ? '{}' : text);
    const headers = { 'content-type': 'application/json' };
    if (message.method === 'tools/list') {
      seen.lists++;
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: tools() } }), { headers });
    }
    seen.calls.push(message.params?.arguments);
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [] } }), { headers });
  };
  return { fetch: upstream as typeof fetch, seen };
}

/** Posts one 2025-11-25 JSON-RPC request (`id` added) to a gateway in the session `sessionId`. */
export function postInSession(
  gateway: (request: Request) => Promise<Response>,
  sessionId: string,
  message: Record<string, unknown>,
  id = 1,
): Promise<Response> {
  return gateway(
    new Request('http://gateway.test/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, ...message }),
    }),
  );
}
