// Legitimate work that takes long, for time-budget tests that must not rely on catastrophic regexes (patterns are
// matched in linear time): an instance that is simply big, and tool definitions that are simply big.
import { buildLargeSchemaOfKinds } from '../fixtures/real-world/large-schema.ts';

/** Bounds raised so a big instance or schema is admitted and its size, not a policy, is what takes time. */
export const roomyPolicy = {
  maxInstanceBytes: 256 * 1024 * 1024,
  maxWork: 2_000_000_000,
  maxSchemaBytes: 64 * 1024 * 1024,
  maxSubschemas: 10_000_000,
  maxExpansion: 10_000_000,
  // The hostile tool's pointers (7.8 MB) would be refused as too_large as soon as the policy walk ends, which a
  // faster walk reaches inside the compile budget: the budget, not a size bound, must be what stops it.
  maxPointerBytes: 256 * 1024 * 1024,
  maxCompiledBytes: 1024 * 1024 * 1024,
};

/** A list of rows: validating it costs one small object check per row. */
export const rowsSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'array', items: { type: 'integer' } } },
    required: ['a', 'b'],
  },
};

/** A tool taking rows; its arguments can be as big as the caller likes. */
export const rowsTool = { name: 'import_rows', inputSchema: { type: 'object', properties: { rows: rowsSchema }, required: ['rows'] } };

/** 100,000 valid rows (~3 MB): about two seconds to clone and validate in a worker on the 2-core VM. */
export function manyRows(count = 100_000): { a: string; b: number; c: number[] }[] {
  return Array.from({ length: count }, (_, i) => ({ a: 'row', b: i, c: [1, 2, 3] }));
}

/**
 * A tool whose input schema is the real-world large schema with `kinds` resource definitions: 105 kinds make it
 * ~220 KB (under the default 256 KB bound), 50–170 ms to compile; thousands make a schema that compiles for seconds.
 * `id` makes each tool's schemas distinct, so no compile is a cache hit.
 */
export function bigTool(id: string, kinds = 105): { name: string; inputSchema: Record<string, unknown> } {
  return { name: `apply_${id}`, inputSchema: buildLargeSchemaOfKinds(kinds, `Apply a batch of infrastructure changes (${id}).`) };
}
