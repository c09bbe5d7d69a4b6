import type { CompiledTool } from '../tools/compile-tool.ts';
import type { CompileResult } from './compile-schema.ts';

/**
 * Heap a cached compile result retains: the estimate made before it compiled, plus its warnings; a refusal its
 * message (which names a location, as long as the schema's own pointer).
 */
export function compiledWeight(result: CompileResult): number {
  if (result.status === 'refused') return 512 + result.refusal.message.length;
  let weight = result.schema.retained;
  for (const warning of result.schema.warnings) weight += 64 + warning.message.length;
  return weight;
}

/** Heap a cached tool retains: its entry and verdict, and its compiled schemas (also counted by the schema cache). */
export function toolWeight(tool: CompiledTool): number {
  return 512 + (tool.input === null ? 0 : compiledWeight(tool.input)) + (tool.output === null ? 0 : compiledWeight(tool.output));
}
