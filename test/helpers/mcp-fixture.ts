// A real SDK Server with hand-written tool definitions (any JSON Schema, hostile ones included), connected to a
// real SDK Client over the SDK's in-memory transport. Counts what reaches the server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

export const tools: Tool[] = [
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1 } }, required: ['text'] },
  },
  { name: 'remote', inputSchema: { type: 'object', properties: { profile: { $ref: 'https://example.com/profile.json' } } } },
  {
    name: 'weather',
    inputSchema: { type: 'object', properties: { reply: { type: 'string', enum: ['good', 'bad', 'missing', 'error'] } } },
    outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
  },
  {
    name: 'ask',
    inputSchema: { type: 'object', properties: { form: { type: 'string', enum: ['profile', 'empty-enum'] } } },
  },
];

export const profileForm: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0 },
    newsletter: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'green'], default: 'green' },
  },
  required: ['name', 'email'],
};

/** What the server saw when its elicitation request failed. */
export interface ElicitationFailure {
  readonly error: { readonly code: number; readonly message: string };
}

export interface Fixture {
  readonly client: Client;
  readonly server: Server;
  /** Every tools/call and tools/list request the server received, and every elicitation result it got back. */
  readonly seen: { calls: { name: string; arguments: unknown }[]; lists: number; elicitations: (ElicitResult | ElicitationFailure)[] };
  close(): Promise<void>;
}

/** A real SDK Server with `list` as its tools (paged `pageSize` at a time) that records what reaches it in `seen`. */
export function createFixtureServer(list: Tool[], pageSize: number, seen: Fixture['seen'], record = true): Server {
  const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    seen.lists++;
    const start = Number(request.params?.cursor ?? 0);
    const next = start + pageSize;
    return { tools: list.slice(start, next), ...(next < list.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    // A bench leaves calls unrecorded: a list that grows with every call makes each collection longer.
    if (record) seen.calls.push({ name: request.params.name, arguments: args });
    if (request.params.name === 'weather') {
      const reply = (args as { reply?: string }).reply ?? 'good';
      if (reply === 'bad') return { content: [{ type: 'text', text: 'hot' }], structuredContent: { temperature: 'hot' } };
      if (reply === 'missing') return { content: [{ type: 'text', text: 'no data' }] };
      if (reply === 'error') return { content: [{ type: 'text', text: 'failed' }], structuredContent: { oops: true }, isError: true };
      return { content: [{ type: 'text', text: '21' }], structuredContent: { temperature: 21 } };
    }
    if (request.params.name === 'ask') {
      // An empty enum offers no choice: outside the spec's subset, yet the SDK's own request check lets it through.
      const requestedSchema =
        (args as { form?: string }).form === 'empty-enum'
          ? ({ type: 'object', properties: { color: { type: 'string', enum: [] } } } as unknown as typeof profileForm)
          : profileForm;
      try {
        const result = await server.elicitInput({ mode: 'form', message: 'Who are you?', requestedSchema });
        seen.elicitations.push(result);
        return { content: [{ type: 'text', text: JSON.stringify(result) }] };
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        seen.elicitations.push({ error: { code, message } });
        return { content: [{ type: 'text', text: message }], isError: true };
      }
    }
    return { content: [{ type: 'text', text: String((args as { text?: unknown }).text) }] };
  });
  return server;
}

/** Starts a server with `list` as its tools (paged `pageSize` at a time) and a client connected to it. */
export async function startFixture(
  options: { list?: Tool[]; pageSize?: number; client?: Client; recordCalls?: boolean } = {},
): Promise<Fixture> {
  const list = options.list ?? tools;
  const pageSize = options.pageSize ?? list.length;
  const seen: Fixture['seen'] = { calls: [], lists: 0, elicitations: [] };
  const server = createFixtureServer(list, pageSize, seen, options.recordCalls ?? true);
  const client = options.client ?? new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    server,
    seen,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
