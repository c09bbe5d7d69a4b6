import { DurableObject } from 'cloudflare:workers';
import { type ListPage, maxStateBytes, type SessionStore, type StoredTool, stateTooLarge, unpackTool } from './session-store.ts';
import { type ToolRows, toolRows } from './tool-rows.ts';

/** Idle sessions are forgotten after a day. */
const idleMs = 24 * 60 * 60 * 1000;

/**
 * One state key's gateway state — pending elicitations, and its tools for isolates whose cache lacks them — in a
 * Durable Object named by `${credentialScope}:${Mcp-Session-Id ?? 'stateless'}`, so it holds whichever isolate a
 * request lands on and never crosses credentials. Called over Workers RPC. Tools live in a SQLite table, so a first
 * page replaces the whole list in one statement (and in one implicit transaction with its rows) without reading the
 * old definitions back. Each row keeps the name once (`packTool`) and its `storedToolBytes`, so the key's whole list
 * is bounded by `maxStateBytes` (the wrapper bounds each page before it is sent; pages add up here): past it the list
 * is emptied and the call fails `state_too_large`.
 */
export class McpSession extends DurableObject implements SessionStore {
  async putTools(tools: readonly StoredTool[], page: ListPage): Promise<void> {
    await this.putToolRows(toolRows(tools), page.first);
  }

  /**
   * `putTools` with the rows already written as text (`durableSessionStore` does it in the calling isolate): a few
   * strings cross Workers RPC instead of 10,000 tool objects, whose structured clone cost ~60 ms a list each way.
   */
  async putToolRows(rows: ToolRows, first: boolean): Promise<void> {
    const sql = this.toolTable();
    // A newer list replaces, never merges: a tool the upstream dropped is unknown at once.
    if (first) sql.exec('DELETE FROM tool_records');
    // Rows go in as JSON arrays, a batch per statement: one exec per tool cost ~20 us, 200 ms for 10,000 tiny tools.
    for (const batch of rows.batches) {
      sql.exec(
        // json() of the record object is its JSON text (SQLite's, minified), which unpackTool parses.
        'INSERT OR REPLACE INTO tool_records (name, record, bytes) SELECT value ->> 0, json(value -> 1), value ->> 2 FROM json_each(?)',
        batch,
      );
    }
    for (const row of rows.large) {
      sql.exec('INSERT OR REPLACE INTO tool_records (name, record, bytes) VALUES (?, ?, ?)', row.name, row.record, row.bytes);
    }
    const total = Number(sql.exec<{ total: number }>('SELECT COALESCE(SUM(bytes), 0) AS total FROM tool_records').one().total);
    if (total > maxStateBytes) {
      // None of the list is kept: a part of it would serve calls as if the rest did not exist.
      sql.exec('DELETE FROM tool_records');
      throw stateTooLarge(total, maxStateBytes);
    }
    await this.touch();
  }

  async getTool(name: string): Promise<StoredTool | undefined> {
    const [row] = this.toolTable().exec<{ record: string }>('SELECT record FROM tool_records WHERE name = ?', name).toArray();
    // A row of an older record format reads as missing (`unpackTool`): the gateway lists the tools again.
    return row === undefined ? undefined : unpackTool(name, row.record);
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

  /**
   * The tools table, made again after `deleteAll` (which drops every table). `tools`, its form before rows counted
   * their bytes, is dropped: it only cached verdicts, which the gateway lists again.
   */
  private toolTable(): SqlStorage {
    const sql = this.ctx.storage.sql;
    sql.exec('DROP TABLE IF EXISTS tools');
    sql.exec('CREATE TABLE IF NOT EXISTS tool_records (name TEXT PRIMARY KEY, record TEXT NOT NULL, bytes INTEGER NOT NULL)');
    return sql;
  }

  private async touch(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + idleMs);
  }
}

/**
 * A state key's Durable Object as the gateway's `SessionStore`: its tools are written as rows in this isolate
 * (`toolRows`) and sent as text, not as objects for Workers RPC to clone.
 */
export function durableSessionStore(stub: DurableObjectStub<McpSession>): SessionStore {
  return {
    putTools: (tools, page) => stub.putToolRows(toolRows(tools), page.first),
    getTool: (name) => stub.getTool(name) as Promise<StoredTool | undefined>,
    putElicitation: (id, requestedSchema) => stub.putElicitation(id, requestedSchema),
    takeElicitation: (id) => stub.takeElicitation(id),
    clear: () => stub.clear(),
  };
}
