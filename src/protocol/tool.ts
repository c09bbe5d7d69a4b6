import type { Refused } from './outcome.ts';
import type { SchemaWarning } from './warning.ts';

/** The parts of an MCP tool definition that schemaval reads. */
export interface ToolDefinition {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly [key: string]: unknown;
}

/** The verdict on a schema: enforced, or refused with the reason. */
export type SchemaVerdict = { readonly status: 'accepted' } | Refused;

/** A tool is refused when either of its schemas is refused. `null`: the tool has no such schema. */
export interface ToolVerdict {
  readonly name: string;
  readonly fingerprint: string;
  readonly status: 'accepted' | 'refused';
  readonly input: SchemaVerdict | null;
  readonly output: SchemaVerdict | null;
  readonly warnings: readonly SchemaWarning[];
}
