// The floor of section 6: a Worker that only forwards /mcp to UPSTREAM_MCP_URL, unread and unchecked, under the
// same `wrangler dev` as the gateway. What the gateway costs above it is the gateway's own.
export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === '/healthz') return new Response('ok');
    const headers = new Headers(request.headers);
    headers.delete('host');
    const body = request.method === 'POST' ? await request.arrayBuffer() : undefined;
    const response = await fetch(env.UPSTREAM_MCP_URL, { method: request.method, headers, body });
    return new Response(response.body, { status: response.status, headers: response.headers });
  },
};
