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

/**
 * Heap a cached tool retains of its own: its entry and verdict (a warning or refusal quotes the schema). Its compiled
 * schemas are weighed by the schema cache, once however many tools share them (create-engine.ts).
 */
export function toolWeight(tool: CompiledTool): number {
  let weight = 512;
  for (const warning of tool.verdict.warnings) weight += 64 + warning.message.length;
  for (const side of [tool.verdict.input, tool.verdict.output]) if (side?.status === 'refused') weight += 64 + side.refusal.message.length;
  return weight;
}
