// Where a cfworker location points: the subschema behind a keyword location and the value behind an instance
// location, each pointer decoded once while cfworker-pointers.ts keeps it, each subschema found once per collection.
import type { SchemaNode } from '../../schema/schema-validator-adapter.ts';
import { holderOf, keywordsOf, type Pointer, pointerOf } from './cfworker-pointers.ts';
import type { Context, Located } from './leaf-context.ts';

export const has = (object: unknown, key: string): boolean => typeof object === 'object' && object !== null && Object.hasOwn(object, key);

export function valueAt(instance: unknown, path: readonly string[]): unknown {
  let value = instance;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Array.isArray(value) ? value[Number(segment)] : has(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value;
}

/** Whether a keyword location lies inside a `contains` subschema (and not in a property named "contains"). */
export function insideContains(keywordLocation: string): boolean {
  if (!keywordLocation.includes('/contains/')) return false;
  const pointer = pointerOf(keywordLocation);
  const segments = pointer.segments;
  const keywords = keywordsOf(pointer);
  for (let i = 0; i < segments.length - 1; i++) if (segments[i] === 'contains' && keywords[i]) return true;
  return false;
}

/** Finds the subschema holding a keyword from cfworker's keyword location, following `$ref`s as it goes. */
export function locate(context: Context, keywordLocation: string): Located {
  // Keyed by the decoded pointer, not the text: cfworker's texts are new each call, and a text key is hashed anew.
  // The last answer apart, every one is kept: most collections locate one or two places.
  const pointer = pointerOf(keywordLocation);
  const last = context.lastLocated;
  if (last !== undefined && last.pointer === pointer) return last.located;
  let found = context.located?.get(pointer);
  if (found === undefined) found = walkTo(context, pointer) ?? { schema: {}, schemaPath: [] };
  if (last !== undefined) {
    context.located ??= new Map();
    context.located.set(last.pointer, last.located);
  }
  context.lastLocated = { pointer, located: found };
  return found;
}

function walkTo(context: Context, pointer: Pointer): Located | undefined {
  const segments = holderOf(pointer);
  // The flags of a prefix are the prefix of the flags (each depends on the segments before it and the next one).
  const keywords = keywordsOf(pointer);
  const { root, lookup } = context.input;
  let node: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    if (typeof node !== 'object' || node === null) return undefined;
    const segment = segments[i] as string;
    const holder = node as Record<string, unknown>;
    // Only a reference in keyword place is followed: `/properties/$ref` is the property named "$ref".
    if (keywords[i] && segment === '$ref') node = lookup[String(holder.__absolute_ref__)];
    else if (keywords[i] && segment === '$recursiveRef') node = lookup[String(holder.__absolute_recursive_ref__)];
    else node = Object.hasOwn(holder, segment) ? holder[segment] : undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  return { schema: node as SchemaNode, schemaPath: segments };
}

/** An instance location's segments, decoded once per distinct location. */
export const segmentsOf = (location: string): readonly string[] => pointerOf(location).segments;
