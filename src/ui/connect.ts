import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createIdbVerdictCache, type SchemaValidationOptions, type Validator, withSchemaValidation } from '../host/browser.ts';
import type { ElicitationRequest } from './elicitation-dialog.ts';

export interface ConnectOptions {
  /** The MCP endpoint (the page's own origin, `/mcp`). */
  readonly url: URL;
  /** Runs every check (in a Web Worker: `createValidator({ spawn: spawnBrowserWorker(url) })`). */
  readonly validator: Validator;
  readonly onWarning: NonNullable<SchemaValidationOptions['onWarning']>;
  readonly onVerdicts: NonNullable<SchemaValidationOptions['onVerdicts']>;
  /** Asks the person a form-mode elicitation; the answer is checked again by the adapter before it is sent. */
  readonly elicit: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
}

/** An MCP client over Streamable HTTP that enforces every schema through `validator`, tool verdicts kept in IndexedDB. */
export async function connect(options: ConnectOptions): Promise<Client> {
  const { validator } = options;
  const client = withSchemaValidation(
    new Client({ name: 'schemaval-demo-page', version: '0.1.0' }, { capabilities: { elicitation: { form: {} } } }),
    { validator, cache: createIdbVerdictCache(), onWarning: options.onWarning, onVerdicts: options.onVerdicts },
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    return options.elicit({ message: params.message, requestedSchema: params.requestedSchema }, extra.signal);
  });
  await client.connect(new StreamableHTTPClientTransport(options.url));
  return client;
}
