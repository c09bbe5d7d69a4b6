// Chooses the closest branch of a failed `anyOf`/`oneOf`, the one reported beside the keyword's own failure.
import type { LeafFailure } from '../../schema/schema-validator-adapter.ts';
import { build } from './build-leaf.ts';
import { discriminatorChoice } from './discriminator-choice.ts';
import type { Context, OutputUnitLike, Sink } from './leaf-context.ts';

/**
 * The closest alternative. First the discriminator (`discriminatorChoice`): when the value's own property picks
 * some branches by `const`/`enum` and rules others out, only those it picks are candidates. Then, among the
 * candidates, the one with the fewest failures among those that got past `type` (a value of the wrong type was never
 * meant for that branch); ties go to the first. Counts stop at the sink's limit. When the discriminator's choice
 * leaves no candidate (its branches failed on `type` alone), every branch is one again.
 */
export function closestOf(
  context: Context,
  branches: readonly { index: number; sink: Sink }[],
  typeOnly: readonly boolean[],
  unit: OutputUnitLike | undefined,
): LeafFailure['closest'] {
  const chosen = unit === undefined ? undefined : discriminatorChoice(context, unit, branches);
  const best = (chosen !== undefined ? fewest(branches, typeOnly, chosen) : undefined) ?? fewest(branches, typeOnly, undefined);
  if (best === undefined) return undefined;
  return { index: best.index, failures: best.sink.entries.map((entry) => build(context, entry)) };
}

/** The branch with the fewest failures past `type`, among `only` (positions in `branches`) when given. */
function fewest(
  branches: readonly { index: number; sink: Sink }[],
  typeOnly: readonly boolean[],
  only: ReadonlySet<number> | undefined,
): { index: number; sink: Sink } | undefined {
  let best: { index: number; sink: Sink } | undefined;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const [k, branch] of branches.entries()) {
    const size = branch.sink.entries.length + (branch.sink.overflow ? 1 : 0);
    if (typeOnly[k] || size === 0 || size >= bestCount || (only !== undefined && !only.has(k))) continue;
    best = branch;
    bestCount = size;
  }
  return best;
}
