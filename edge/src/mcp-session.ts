import { DurableObject } from 'cloudflare:workers';
import type { SessionStore, StoredTool } from './session-store.ts';

/** Idle sessions are forgotten after a day. */
const idleMs = 24 * 60 * 60 * 1000;

/**
 * One state key's gateway state — pending elicitations, and its tools for isolates whose cache lacks them — in a
 * Durable Object named by `${credentialScope}:${Mcp-Session-Id ?? 'stateless'}`, so it holds whichever isolate a
 * request lands on and never crosses credentials. Called over Workers RPC.
 */
export class McpSession extends DurableObject implements SessionStore {
  async putTools(tools: readonly StoredTool[]): Promise<void> {
    // At most 128 keys per put.
    for (let i = 0; i < tools.length; i += 128) {
      const entries: Record<string, StoredTool> = {};
      for (const tool of tools.slice(i, i + 128)) entries[`tool:${tool.name}`] = tool;
      await this.ctx.storage.put(entries);
    }
    await this.touch();
  }

  async getTool(name: string): Promise<StoredTool | undefined> {
    return this.ctx.storage.get<StoredTool>(`tool:${name}`);
  }

  async putElicitation(id: string, requestedSchema: string): Promise<void> {
    await this.ctx.storage.put(`elicitation:${id}`, requestedSchema);
    await this.touch();
  }

  async takeElicitation(id: string): Promise<string | undefined> {
    const key = `elicitation:${id}`;
    const schema = await this.ctx.storage.get<string>(key);
    if (schema !== undefined) await this.ctx.storage.delete(key);
    return schema;
  }

  async clear(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  private async touch(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + idleMs);
  }
}
