import { DurableObject } from 'cloudflare:workers';
import type { ListPage, SessionStore, StoredTool } from './session-store.ts';

/** Idle sessions are forgotten after a day. */
const idleMs = 24 * 60 * 60 * 1000;

/**
 * One state key's gateway state — pending elicitations, and its tools for isolates whose cache lacks them — in a
 * Durable Object named by `${credentialScope}:${Mcp-Session-Id ?? 'stateless'}`, so it holds whichever isolate a
 * request lands on and never crosses credentials. Called over Workers RPC. Tools live in a SQLite table, so a first
 * page replaces the whole list in one statement (and in one implicit transaction with its rows) without reading the
 * old definitions back.
 */
export class McpSession extends DurableObject implements SessionStore {
  async putTools(tools: readonly StoredTool[], page: ListPage): Promise<void> {
    const sql = this.toolTable();
    // A newer list replaces, never merges: a tool the upstream dropped is unknown at once.
    if (page.first) sql.exec('DELETE FROM tools');
    for (const tool of tools) sql.exec('INSERT OR REPLACE INTO tools (name, record) VALUES (?, ?)', tool.name, JSON.stringify(tool));
    await this.touch();
  }

  async getTool(name: string): Promise<StoredTool | undefined> {
    const [row] = this.toolTable().exec<{ record: string }>('SELECT record FROM tools WHERE name = ?', name).toArray();
    return row === undefined ? undefined : (JSON.parse(row.record) as StoredTool);
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

  /** The tools table, made again after `deleteAll` (which drops every table). */
  private toolTable(): SqlStorage {
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS tools (name TEXT PRIMARY KEY, record TEXT NOT NULL)');
    return sql;
  }

  private async touch(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + idleMs);
  }
}
