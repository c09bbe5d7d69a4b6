import type { CompileResult } from './compile-schema.ts';
import type { CompiledTool } from './compile-tool.ts';

/**
 * Heap a cached compile result retains, in bytes, estimated from the schema's shape: a fixed cost per entry, the
 * strings the engine's copy keeps, a cost per JSON value and the per-subschema cost of the engine's index and the
 * validator's lookup tables. Fitted to `process.memoryUsage().heapUsed` after GC over real-sized schemas from
 * 37 B to 255 KB (bench/cache-cost.ts --heap): 0.9-1.2 of what each retains, and up to 2 for long flat arrays
 * of tiny values (an over-estimate is safe). Eight times the JSON size, the estimate it replaces, was off by up
 * to 5x for description-heavy schemas and 3x the other way for enum-heavy ones.
 */
export function compiledWeight(result: CompileResult): number {
  if (!result.ok) return 512;
  const { bytes, subschemas, values } = result.schema;
  return 3_700 + bytes + 560 * subschemas + 24 * values;
}

/** Heap a cached tool retains: its entry and verdict, and its compiled schemas (also counted by the schema cache). */
export function toolWeight(tool: CompiledTool): number {
  return 512 + (tool.input === null ? 0 : compiledWeight(tool.input)) + (tool.output === null ? 0 : compiledWeight(tool.output));
}
