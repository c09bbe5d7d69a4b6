import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { maxToolListPages } from '../mcp/tool-list-limits.ts';
import type { PageClient } from './modern-client.ts';

/** A tool the gateway left out of `tools/list`, and why. */
export interface RefusedTool {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** The `_meta` key under which the edge gateway names the tools it filtered out (edge/src/gateway/mcp-gateway.ts). */
const refusedMeta = 'io.schemaval/refused';

const isRefused = (value: unknown): value is RefusedTool => {
  const v = value as Partial<Record<keyof RefusedTool, unknown>> | null;
  return typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.code === 'string' && typeof v.message === 'string';
};

/**
 * Every page of `tools/list`: the tools the (wrapped) client accepted, and those the gateway refused. At most
 * `maxToolListPages` pages, as on every surface (src/mcp); a list that runs past them, or repeats a cursor, is an
 * error in one line rather than a silently shorter list.
 */
export async function listAllTools(
  client: Pick<PageClient, 'listTools'>,
  maxPages = maxToolListPages,
): Promise<{ tools: Tool[]; refused: RefusedTool[] }> {
  const tools: Tool[] = [];
  const refused: RefusedTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    const named = result._meta?.[refusedMeta];
    if (Array.isArray(named)) refused.push(...named.filter(isRefused));
    cursor = result.nextCursor;
    if (cursor === undefined) return { tools, refused };
    if (cursors.has(cursor)) throw new Error(`The server's tools/list repeats the cursor of page ${page}`);
    if (page >= maxPages) throw new Error(`The server's tools/list still has more after ${maxPages} pages`);
    cursors.add(cursor);
  }
}
