import { packTool, type StoredTool, storedToolBytes } from './session-store.ts';

/** A tool as a Durable Object row: its name (the key), its packed record as JSON text, and its `storedToolBytes`. */
export interface ToolRow {
  readonly name: string;
  readonly record: string;
  readonly bytes: number;
}

/**
 * A page of tools as the Durable Object inserts them: `batches` of rows as JSON texts `[[name, record, bytes], …]`,
 * each at most `maxBatchChars`, so a list goes in a few statements instead of one per tool; a row longer than that
 * alone is in `large`, inserted on its own (a Durable Object's SQL takes a string argument of at most 2 MB).
 */
export interface ToolRows {
  readonly batches: readonly string[];
  readonly large: readonly ToolRow[];
}

export function toolRows(tools: readonly StoredTool[], maxBatchChars = 256 * 1024): ToolRows {
  const batches: string[] = [];
  const large: ToolRow[] = [];
  let rows: string[] = [];
  let chars = 2;
  for (const tool of tools) {
    // The record as an object in the row, not a string in it: written once, not quoted a second time.
    const record = packTool(tool);
    const bytes = storedToolBytes(tool);
    const row = `[${JSON.stringify(tool.name)},${record},${bytes}]`;
    if (row.length + 2 > maxBatchChars) {
      large.push({ name: tool.name, record, bytes });
      continue;
    }
    if (rows.length > 0 && chars + row.length + 1 > maxBatchChars) {
      batches.push(`[${rows.join(',')}]`);
      rows = [];
      chars = 2;
    }
    rows.push(row);
    chars += row.length + 1;
  }
  if (rows.length > 0) batches.push(`[${rows.join(',')}]`);
  return { batches, large };
}
