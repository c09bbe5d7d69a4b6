// Compiled, never run (tsconfig.json includes test/): a strict TypeScript host wraps either MCP SDK client with
// withSchemaValidation and gets its own client type back (issue 18 item 3). `npm run typecheck` fails otherwise.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { withSchemaValidation as withSchemaValidationInBrowser } from '../../src/host/browser.ts';
import { createInlineValidator } from '../../src/host/inline-validator.ts';
import { withSchemaValidation as withSchemaValidationInNode } from '../../src/host/node.ts';
import { withSchemaValidation } from '../../src/host/with-schema-validation.ts';

/** `true` only when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const validator = createInlineValidator();

const legacy = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), { validator });
export const legacyKeepsItsType: Same<typeof legacy, Client> = true;

const modern = withSchemaValidation(new ModernClient({ name: 'host', version: '1.0.0' }), { validator });
export const modernKeepsItsType: Same<typeof modern, ModernClient> = true;

// The browser entry exports the same function.
const page = withSchemaValidationInBrowser(new ModernClient({ name: 'page', version: '1.0.0' }), { validator });
export const pageKeepsItsType: Same<typeof page, ModernClient> = true;

// So does the Node entry (`schemaval/host`), whose validator defaults to a worker.
const nodeHost = withSchemaValidationInNode(new ModernClient({ name: 'host', version: '1.0.0' }), { validator });
export const nodeKeepsItsType: Same<typeof nodeHost, ModernClient> = true;

// Each keeps its own method signatures: v1 callTool takes a result schema second, v2 its options.
export const calls = [
  () => legacy.callTool({ name: 'add', arguments: { a: 1 } }, undefined, { timeout: 1_000 }),
  () => modern.callTool({ name: 'add', arguments: { a: 1 } }, { timeout: 1_000 }),
  () => modern.listTools().then((result) => result.tools.map((tool) => tool.name)),
];

// Not an MCP client: refused at compile time.
// @ts-expect-error an object without request/listTools/callTool/setRequestHandler
export const notAClient = withSchemaValidation({ listTools: async () => ({ tools: [] }) }, { validator });
