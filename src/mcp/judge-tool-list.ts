import { toolListRefusals } from '../engine/tools/index.ts';
import type { ToolVerdict } from '../protocol/tool.ts';

/**
 * Every tool's verdict, in list order: the list's own refusals under `revision` first (names, duplicates, malformed
 * definitions, an `outputSchema` root the revision forbids), and only the tools they leave compiled by `compile`
 * (the engine's `compileTools` knows no revision, so it must not be handed what the revision refuses).
 */
export async function judgeToolList(
  tools: readonly unknown[],
  revision: string | undefined,
  compile: (tools: readonly unknown[]) => Promise<readonly ToolVerdict[]> | readonly ToolVerdict[],
): Promise<ToolVerdict[]> {
  const forced = toolListRefusals(tools, new Map(), revision);
  const judged = tools.filter((_, i) => forced[i] === undefined);
  const compiled = judged.length > 0 ? await compile(judged) : [];
  let next = 0;
  return forced.map((verdict) => verdict ?? (compiled[next++] as ToolVerdict));
}
