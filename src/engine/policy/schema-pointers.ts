// Subschema pointers built on demand from the walk's parent links, and locations found by walking a pointer.

import type { SubschemaKeyword } from '../schema/schema-keywords.ts';
import { isFalseSchema, type SchemaIndex, type SchemaObject, type SchemaPointers } from '../schema/schema-types.ts';

/** Where the walk met a subschema: the subschema holding it, the keyword, and the name or index under that. */
export interface Place {
  readonly parent: SchemaObject | undefined;
  readonly keyword: string;
  readonly key: string | number | undefined;
}

export const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

export const isSchema = (value: unknown): value is SchemaObject | boolean =>
  typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));

/** A pointer token back to the name it escapes; undefined unless it is exactly how the walk would escape one. */
function unescapeToken(token: string): string | undefined {
  if (!token.includes('~')) return token;
  const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
  return escapeToken(name) === token ? name : undefined;
}

/** The pointer of a place below the root, without `#`: parent links followed up, then joined once. */
export function placePath(places: ReadonlyMap<SchemaObject, Place>, place: Place): string {
  const segments: string[] = [];
  for (let at: Place | undefined = place; at !== undefined && at.parent !== undefined; at = places.get(at.parent)) {
    segments.push(at.key === undefined ? '' : `/${typeof at.key === 'number' ? at.key : escapeToken(at.key)}`);
    segments.push(`/${escapeToken(at.keyword)}`);
  }
  return segments.reverse().join('');
}

/** `#pointer` + `suffix` of a place, built when called. */
export function pointerAt(places: ReadonlyMap<SchemaObject, Place>, place: Place, suffix: string): () => string {
  return () => `#${placePath(places, place)}${suffix}`;
}

export function schemaPointers(places: ReadonlyMap<SchemaObject, Place>): SchemaPointers {
  return {
    get: (node) => {
      const place = places.get(node);
      return place === undefined ? undefined : `#${placePath(places, place)}`;
    },
    has: (node) => places.has(node),
    keys: () => places.keys(),
    get size() {
      return places.size;
    },
  };
}

/** `locations` without a table of every pointer: the subschema at `base#/pointer` is found by walking the pointer down. */
export function schemaLocations(
  resources: ReadonlyMap<string, SchemaObject | boolean>,
  keywords: Readonly<Record<string, SubschemaKeyword>>,
): SchemaIndex['locations'] {
  const locate = (uri: string): SchemaObject | boolean | undefined => {
    const hash = uri.indexOf('#');
    const document = hash < 0 ? uri : uri.slice(0, hash);
    const fragment = hash < 0 ? '' : uri.slice(hash + 1);
    let node: unknown = resources.get(document);
    if (node === undefined || fragment === '') return node as SchemaObject | boolean | undefined;
    if (!fragment.startsWith('/')) return undefined;
    const tokens = fragment.slice(1).split('/');
    for (let i = 0; i < tokens.length; ) {
      if (typeof node !== 'object' || node === null || isFalseSchema(node)) return undefined;
      const keyword = unescapeToken(tokens[i++] as string);
      const info = keyword === undefined || !Object.hasOwn(node, keyword) ? undefined : keywords[keyword];
      if (info === undefined) return undefined;
      const value = (node as SchemaObject)[keyword as string];
      const indexed = info.shape === 'array' || (info.shape === 'schemaOrArray' && Array.isArray(value));
      const mapped = info.shape === 'map' || info.shape === 'dependencies';
      if (indexed || mapped) {
        const token = tokens[i++];
        if (token === undefined) return undefined;
        if (indexed) {
          if (!/^(?:0|[1-9][0-9]*)$/.test(token) || Number(token) >= (value as unknown[]).length) return undefined;
          node = (value as unknown[])[Number(token)];
        } else {
          const name = unescapeToken(token);
          if (name === undefined || !Object.hasOwn(value as object, name)) return undefined;
          node = (value as Record<string, unknown>)[name];
          if (Array.isArray(node)) return undefined;
        }
      } else node = value;
      if (!isSchema(node)) return undefined;
    }
    return node as SchemaObject | boolean;
  };

  return { get: locate, has: (uri) => locate(uri) !== undefined };
}

/** A pattern and where it is, the pointer built only if a message needs it. */
export function located(
  pattern: string,
  places: ReadonlyMap<SchemaObject, Place>,
  place: Place,
  suffix: string,
): { readonly pattern: string; readonly pointer: string } {
  const pointer = pointerAt(places, place, suffix);
  return {
    pattern,
    get pointer() {
      return pointer();
    },
  };
}
