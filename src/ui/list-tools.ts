import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PageClient } from './modern-client.ts';

/** A tool the gateway left out of `tools/list`, and why. */
export interface RefusedTool {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** The `_meta` key under which the edge gateway names the tools it filtered out (edge/src/mcp-gateway.ts). */
const refusedMeta = 'io.schemaval/refused';
const maxPages = 100;

const isRefused = (value: unknown): value is RefusedTool => {
  const v = value as Partial<Record<keyof RefusedTool, unknown>> | null;
  return typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.code === 'string' && typeof v.message === 'string';
};

/** Every page of `tools/list`: the tools the (wrapped) client accepted, and those the gateway refused. */
export async function listAllTools(client: Pick<PageClient, 'listTools'>): Promise<{ tools: Tool[]; refused: RefusedTool[] }> {
  const tools: Tool[] = [];
  const refused: RefusedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    const named = result._meta?.[refusedMeta];
    if (Array.isArray(named)) refused.push(...named.filter(isRefused));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools, refused };
}
