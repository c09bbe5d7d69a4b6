// `schemaval/edge`: the pieces another Workers project mounts (docs/edge.md). The gateway's Worker entry, its
// Durable Object and configuration stay in index.ts: they are this repo's deployment, not a library.
export { createApp } from './http/app.ts';
export type { AppDeps, McpHandler } from './http/app-deps.ts';
export { defaultMaxBodyBytes } from './http/default-max-body-bytes.ts';
export type { HttpErrorCode } from './http/error-response.ts';
export { SchemavalRpc } from './http/schemaval-rpc.ts';
export { type InvalidBodyError, type ValidateBodyOptions, type ValidatedBodyEnv, validateBody } from './http/validate-body.ts';
