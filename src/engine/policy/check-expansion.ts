import type { Policy } from '../../protocol/policy.ts';
import type { Refusal } from '../../protocol/refusal.ts';
import type { SchemaIndex, SchemaObject } from '../schema/schema-types.ts';

/**
 * Counts the subschemas applied in place to one instance location once references and in-place applicators
 * are expanded, for every subschema, and refuses a reference cycle that never descends into the instance
 * (`allOf: [{"$ref": "#"}]`), which would never terminate. Counts saturate, so a doubling bomb costs linear time.
 */
const none: readonly SchemaObject[] = [];

export function checkExpansion(
  index: SchemaIndex,
  targets: ReadonlyMap<SchemaObject, readonly (SchemaObject | boolean)[]>,
  policy: Policy,
): Refusal | undefined {
  const limit = policy.maxExpansion;
  // Without references the engine's copy is a tree (the copy makes every object anew), so no cycle exists and a
  // subschema expands to at most the subschemas below it: within the limit when the whole schema is.
  if (targets.size === 0 && index.subschemas <= limit) return undefined;
  const edges = (node: SchemaObject): readonly SchemaObject[] => {
    const inPlace = index.inPlace.get(node);
    const refs = targets.get(node);
    // Most subschemas are leaves here: one shared empty list, not an array each.
    if (inPlace === undefined && refs === undefined) return none;
    const out: SchemaObject[] = [];
    for (const child of inPlace ?? []) out.push(child);
    for (const target of refs ?? []) if (typeof target === 'object') out.push(target);
    return out;
  };
  const size = new Map<SchemaObject, number>();
  const onStack = new Set<SchemaObject>();
  // Iterative depth-first search: reference chains can be far longer than the call stack. Empty between starts.
  const stack: { node: SchemaObject; children: readonly SchemaObject[]; next: number; total: number }[] = [];
  const push = (node: SchemaObject): void => {
    onStack.add(node);
    stack.push({ node, children: edges(node), next: 0, total: 1 });
  };
  for (const start of index.pointerOf.keys()) {
    if (size.has(start)) continue;
    push(start);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      if (frame.next < frame.children.length) {
        const child = frame.children[frame.next++] as SchemaObject;
        const known = size.get(child);
        if (known !== undefined) frame.total = Math.min(limit + 1, frame.total + known);
        else if (onStack.has(child)) {
          return {
            code: 'too_many_subschemas',
            message: `${index.pointerOf.get(child) ?? '#'}: a reference cycle applies this subschema to the same value forever`,
          };
        } else push(child);
        continue;
      }
      stack.pop();
      onStack.delete(frame.node);
      size.set(frame.node, frame.total);
      if (frame.total > limit) {
        return {
          code: 'too_many_subschemas',
          message: `${index.pointerOf.get(frame.node) ?? '#'}: expands to more than ${limit} subschemas applied to one value`,
        };
      }
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.total = Math.min(limit + 1, parent.total + frame.total);
    }
  }
  return undefined;
}
