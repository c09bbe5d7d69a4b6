// Greedy minimisation of a disagreeing schema/instance pair. fast-check cannot shrink a schema through the
// `chain` that derives its instances, so a failure is cut down here before it is reported.
import type { Json } from './json-values.ts';

/** Smaller variants of a JSON value: members dropped, subtrees replaced by `true`, `{}` or a member. */
function* smaller(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    if (value.length > 0) yield [];
    for (let i = 0; i < value.length; i++) yield [...value.slice(0, i), ...value.slice(i + 1)];
    for (let i = 0; i < value.length; i++) {
      for (const item of smaller(value[i]!)) yield [...value.slice(0, i), item, ...value.slice(i + 1)];
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    for (const key of keys) {
      const { [key]: _dropped, ...rest } = value;
      yield rest;
    }
    for (const key of keys) {
      for (const item of smaller(value[key]!)) yield { ...value, [key]: item };
    }
    for (const key of keys) {
      const member = value[key]!;
      if (member !== null && typeof member === 'object' && !Array.isArray(member)) yield member;
    }
    if (keys.length > 0) yield true;
    return;
  }
  if (typeof value === 'string' && value.length > 0) yield value.slice(0, -1);
  if (typeof value === 'number' && value !== 0) yield 0;
  if (value !== null && typeof value !== 'boolean') yield null;
}

/**
 * Shrinks `schema` and `instance` while `stillFails` holds, one greedy step at a time (bounded by `maxSteps`
 * checks), and returns the smallest pair found.
 */
export async function minimizePair(
  schema: Json,
  instance: Json,
  stillFails: (schema: Json, instance: Json) => Promise<boolean>,
  maxSteps = 4000,
): Promise<{ schema: Json; instance: Json }> {
  let current = { schema, instance };
  let steps = 0;
  let progress = true;
  while (progress && steps < maxSteps) {
    progress = false;
    for (const side of ['schema', 'instance'] as const) {
      for (const candidate of smaller(current[side])) {
        if (++steps > maxSteps) break;
        const next = { ...current, [side]: candidate };
        if (await stillFails(next.schema, next.instance)) {
          current = next;
          progress = true;
          break;
        }
      }
    }
  }
  return current;
}
