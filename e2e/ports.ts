// Where the e2e run serves the demo: the edge (page + /mcp) and the upstream MCP server it forwards to.
export const edgePort = Number(process.env.E2E_PORT ?? 4173);
export const upstreamPort = Number(process.env.E2E_UPSTREAM_PORT ?? 4174);
export const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
/** A second MCP server that e2e/connect-server.spec.ts starts itself; the web server allow-lists its origin. */
export const connectPort = Number(process.env.E2E_CONNECT_PORT ?? 4175);
