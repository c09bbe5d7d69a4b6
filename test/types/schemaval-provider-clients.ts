// Compiled, never run (tsconfig.json includes test/): schemavalProvider() fits the jsonSchemaValidator hook of both
// MCP SDK lines (issue 18 item 3). `npm run typecheck` fails if either interface drifts from what it returns.
import { Client as ModernClient, type jsonSchemaValidator as ModernHook } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { jsonSchemaValidator as LegacyHook } from '@modelcontextprotocol/sdk/validation/types.js';
import { schemavalProvider } from '../../src/host/schemaval-provider.ts';

export const legacyHook: LegacyHook = schemavalProvider();
export const modernHook: ModernHook = schemavalProvider();

export const legacyClient = new Client({ name: 'host', version: '1.0.0' }, { jsonSchemaValidator: schemavalProvider() });
export const modernClient = new ModernClient({ name: 'host', version: '1.0.0' }, { jsonSchemaValidator: schemavalProvider() });
