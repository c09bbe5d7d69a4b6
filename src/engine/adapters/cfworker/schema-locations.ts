// Where a cfworker location points: the subschema behind a keyword location and the value behind an instance
// location, each decoded once per distinct location (cached in the collection's context).
import { keywordSegments } from '../../schema/keyword-segments.ts';
import type { SchemaNode } from '../../schema/schema-validator-adapter.ts';
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
  const segments = pointerSegments(keywordLocation);
  const keywords = keywordSegments(segments);
  for (let i = 0; i < segments.length - 1; i++) if (segments[i] === 'contains' && keywords[i]) return true;
  return false;
}

/** Finds the subschema holding a keyword from cfworker's keyword location, following `$ref`s as it goes. */
export function locate(context: Context, keywordLocation: string): Located {
  const known = context.located.get(keywordLocation);
  if (known !== undefined) return known;
  const found = walkTo(context, keywordLocation) ?? { schema: {}, schemaPath: [] };
  context.located.set(keywordLocation, found);
  return found;
}

function walkTo(context: Context, keywordLocation: string): Located | undefined {
  const segments = pointerSegments(keywordLocation);
  segments.pop();
  const keywords = keywordSegments(segments);
  let node: unknown = context.input.root;
  for (const [i, segment] of segments.entries()) {
    if (typeof node !== 'object' || node === null) return undefined;
    const holder = node as Record<string, unknown>;
    // Only a reference in keyword place is followed: `/properties/$ref` is the property named "$ref".
    if (keywords[i] && segment === '$ref') node = context.input.lookup[String(holder.__absolute_ref__)];
    else if (keywords[i] && segment === '$recursiveRef') node = context.input.lookup[String(holder.__absolute_recursive_ref__)];
    else node = Object.hasOwn(holder, segment) ? holder[segment] : undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  return { schema: node as SchemaNode, schemaPath: segments };
}

/** An instance location's segments, decoded once per distinct location. */
export function segmentsOf(context: Context, location: string): readonly string[] {
  let segments = context.segments.get(location);
  if (segments === undefined) {
    segments = pointerSegments(location);
    context.segments.set(location, segments);
  }
  return segments;
}

/** `#/a~1b/0` → `['a/b', '0']` (cfworker percent-encodes pointer segments). */
function pointerSegments(location: string): string[] {
  const body = location.startsWith('#') ? location.slice(1) : location;
  if (body === '') return [];
  const segments = body.slice(1).split('/');
  // Most locations need no decoding at all.
  if (!body.includes('%') && !body.includes('~')) return segments;
  return segments.map((segment) => {
    let decoded = segment;
    if (segment.includes('%')) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // keep the raw segment: cfworker only encodes with encodeURI, so this is not expected
      }
    }
    return decoded.includes('~') ? decoded.replace(/~1/g, '/').replace(/~0/g, '~') : decoded;
  });
}
