// An MCP upstream that speaks 2026-07-28 and asks for input the MRTR way (an InputRequiredResult, then a retried
// tools/call), built on the v2 SDK server (`createMcpHandler`, which also serves 2025-era clients statelessly).
// Callable in process (`handle`) or listening on 127.0.0.1 (`listen`). It records every tools/call it receives, so
// a test can tell what reached it.
import { createMcpHandler, inputRequired, Server } from '@modelcontextprotocol/server';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';

/** One `tools/call` as the upstream received it. */
export interface SeenCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly inputResponses: Record<string, unknown> | undefined;
  readonly requestState: string | undefined;
}

export interface MrtrUpstream {
  readonly calls: SeenCall[];
  handle(request: Request): Promise<Response>;
  /** Serves on 127.0.0.1 and returns the MCP endpoint URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The form `signup` asks for: a required email (format asserted by a checker), a defaulted tier, an age bound. */
export const profileSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    tier: { type: 'string', enum: ['free', 'pro'], default: 'free' },
    age: { type: 'integer', minimum: 18 },
  },
  required: ['email'],
} as const;

/** Not the restricted form subset: a nested object. */
export const nestedSchema = {
  type: 'object',
  properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
} as const;

export const mrtrTools = [
  { name: 'signup', inputSchema: { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] } },
  { name: 'ship', inputSchema: { type: 'object', properties: {} } },
  { name: 'summarize', inputSchema: { type: 'object', properties: {} } },
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];

/** The upstream's own requestState for signup's first round (the gateway must hand it back unchanged). */
export const upstreamState = 'upstream-state-1';

export function createMrtrUpstream(): MrtrUpstream {
  const calls: SeenCall[] = [];
  const factory = () => {
    const server = new Server({ name: 'mrtr-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: mrtrTools as never }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const responses = ctx.mcpReq.inputResponses as Record<string, { action?: string; content?: unknown } | undefined> | undefined;
      const state = ctx.mcpReq.requestState() as string | undefined;
      calls.push({ name: request.params.name, arguments: request.params.arguments, inputResponses: responses, requestState: state });
      switch (request.params.name) {
        case 'signup': {
          const profile = responses?.profile;
          if (profile?.action !== 'accept' || state !== upstreamState) {
            return inputRequired({
              inputRequests: {
                profile: inputRequired.elicit({ mode: 'form', message: 'Your profile', requestedSchema: profileSchema as never }),
              },
              requestState: upstreamState,
            });
          }
          return { content: [{ type: 'text', text: JSON.stringify(profile.content) }], structuredContent: profile.content as never };
        }
        case 'ship':
          // A form outside the subset (hand-built: the SDK's builder would refuse it before it left).
          return responses === undefined
            ? ({
                resultType: 'input_required',
                inputRequests: {
                  address: { method: 'elicitation/create', params: { mode: 'form', message: 'Where?', requestedSchema: nestedSchema } },
                },
              } as never)
            : { content: [{ type: 'text', text: 'shipped' }] };
        case 'echo':
          return { content: [{ type: 'text', text: String((request.params.arguments as { text?: unknown } | undefined)?.text) }] };
        default:
          // A sampling input request and no requestState: passes the gateway as it is.
          return responses === undefined
            ? inputRequired({
                inputRequests: {
                  draft: inputRequired.createMessage({
                    messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }],
                    maxTokens: 20,
                  }),
                },
              })
            : { content: [{ type: 'text', text: 'summarized' }] };
      }
    });
    return server;
  };
  const handler = createMcpHandler(factory);
  let served: ServedHandler | undefined;
  const handle = (request: Request): Promise<Response> => handler.fetch(request);
  return {
    calls,
    handle,
    listen: async () => {
      served = await serveFetchHandler(handle);
      return `${served.origin}/mcp`;
    },
    close: async () => {
      await handler.close();
      await served?.close();
    },
  };
}
