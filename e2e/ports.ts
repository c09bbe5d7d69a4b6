// Where the e2e run serves the demo: the edge (page + /mcp) and the upstream MCP server it forwards to.
export const edgePort = Number(process.env.E2E_PORT ?? 4173);
export const upstreamPort = Number(process.env.E2E_UPSTREAM_PORT ?? 4174);
export const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
