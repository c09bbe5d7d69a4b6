// schemaval: JSON Schema enforcement for MCP hosts. The engine is the root entry; see ./protocol and ./engine.
export * from './engine/index.ts';
export * from './protocol/index.ts';
