// A raw MCP upstream for gateway tests: JSON answers, an initialize with a session id of its own, every tools/list
// with the same tools, every other request a call with an empty result; and a session-era POST to a gateway.

/** What the upstream saw: how many lists, each call's arguments, and the session id of every request that sent one. */
export interface ListUpstreamSeen {
  lists: number;
  readonly calls: unknown[];
  readonly sessionIds: string[];
}

/** An upstream `fetch` that answers every `tools/list` with `tools()`, and counts what it was asked. */
export function createListUpstream(tools: () => readonly unknown[]): { readonly fetch: typeof fetch; readonly seen: ListUpstreamSeen } {
  const seen: ListUpstreamSeen = { lists: 0, calls: [], sessionIds: [] };
  let sessions = 0;
  const upstream = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) seen.sessionIds.push(sessionId);
    const text = await request.text();
    const message = JSON.parse(text === '' ? '{}' : text);
    const headers = { 'content-type': 'application/json' };
    if (message.method === 'initialize') {
      const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'list', version: '1.0.0' } };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), {
        headers: { ...headers, 'mcp-session-id': `list-session-${sessions++}` },
      });
    }
    if (message.method === 'tools/list') {
      seen.lists++;
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: tools() } }), { headers });
    }
    seen.calls.push(message.params?.arguments);
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [] } }), { headers });
  };
  return { fetch: upstream as typeof fetch, seen };
}

type Gateway = (request: Request) => Promise<Response>;

/** The sealed session id each gateway handed out, per label: a label opens its session once. */
const opened = new WeakMap<Gateway, Map<string, string>>();

/** POSTs one 2025-11-25 message to a gateway, in a session or (no `sessionId`) outside one. */
function postTo(gateway: Gateway, message: Record<string, unknown>, sessionId?: string): Promise<Response> {
  return gateway(
    new Request('http://gateway.test/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    }),
  );
}

/**
 * Opens a real session through the gateway: an `initialize` the upstream answers with a session id of its own, which
 * the gateway hands out sealed (the only kind it takes back). Returns the sealed id.
 */
export async function openSession(gateway: Gateway): Promise<string> {
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } };
  const response = await postTo(gateway, { id: 0, method: 'initialize', params: init });
  await response.body?.cancel();
  const sealed = response.headers.get('mcp-session-id');
  if (sealed === null) throw new Error(`the gateway handed out no session id (HTTP ${response.status})`);
  return sealed;
}

/**
 * Posts one 2025-11-25 JSON-RPC request (`id` added) to a gateway in the session named `label`; the first use of a
 * label opens its session (`openSession`), so each label is a state key of its own.
 */
export async function postInSession(gateway: Gateway, label: string, message: Record<string, unknown>, id = 1): Promise<Response> {
  const sessions = opened.get(gateway) ?? new Map<string, string>();
  opened.set(gateway, sessions);
  const sealed = sessions.get(label) ?? (await openSession(gateway));
  sessions.set(label, sealed);
  return postTo(gateway, { id, ...message }, sealed);
}
