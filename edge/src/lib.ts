// `schemaval/edge`: the pieces another Workers project mounts (docs/edge.md). The gateway's Worker entry, its
// Durable Object and configuration stay in index.ts: they are this repo's deployment, not a library.
export { createApp } from './app.ts';
export type { AppDeps, McpHandler } from './app-deps.ts';
export { defaultMaxBodyBytes } from './default-max-body-bytes.ts';
export type { HttpErrorCode } from './error-response.ts';
export { SchemavalRpc } from './schemaval-rpc.ts';
export { type InvalidBodyError, type ValidateBodyOptions, type ValidatedBodyEnv, validateBody } from './validate-body.ts';
