import type { Dialect } from '../protocol/dialect.ts';
import type { Policy } from '../protocol/policy.ts';
import type { Refusal } from '../protocol/refusal.ts';
import type { SchemaWarning, WarningCode } from '../protocol/warning.ts';
import { checkKeywordTypes } from './check-keywords.ts';
import { retainedBytes } from './compiled-weight.ts';
import { createJsonObject } from './copy-json.ts';
import { formFormatNames } from './form-formats.ts';
import { jsonType } from './json-type.ts';
import { annotationKeywords, foreignKeywords, type SubschemaKeyword, subschemaKeywords } from './schema-keywords.ts';
import { truncate } from './truncate.ts';
import { uriLength } from './uri-length.ts';

/** A schema object in the engine's own copy. */
export type SchemaObject = Record<string, unknown>;

/** A `$ref` (or 2019-09 `$recursiveRef`) found in the document. */
export interface RefSite {
  readonly node: SchemaObject;
  readonly keyword: '$ref' | '$recursiveRef';
  readonly value: string;
  readonly base: string;
  /** Built when read (a message): pointers are never built for every subschema. */
  readonly pointer: string;
}

/** Where the walk met a subschema: the subschema holding it, the keyword, and the name or index under that. */
interface Place {
  readonly parent: SchemaObject | undefined;
  readonly keyword: string;
  readonly key: string | number | undefined;
}

/**
 * Each subschema's JSON pointer (`#/properties/a`), built on demand from parent links: building every pointer would
 * cost subschemas × pointer length, which a few long property names nested deep make hundreds of megabytes.
 */
export interface SchemaPointers {
  get(node: SchemaObject): string | undefined;
  has(node: SchemaObject): boolean;
  /** Every object subschema, in document order. */
  keys(): IterableIterator<SchemaObject>;
  readonly size: number;
}

/** What compiling would retain, counted by the walk without building a pointer (compiled-weight.ts weighs it). */
export interface IndexCount {
  /** Keys the validator builds: each subschema once per walk of its indexer that reaches it, plus anchors. */
  keys: number;
  /** Characters of those keys (base URI, `#`, encoded pointer), and of resolved references (`maxPointerBytes`). */
  keyBytes: number;
  /** `uniqueItems: true` somewhere: the adapter prepares a second copy for arrays known to be duplicate-free. */
  uniqueItems: boolean;
}

/** What the static pass learns from one walk over a schema document. */
export interface SchemaIndex {
  readonly pointerOf: SchemaPointers;
  /** Absolute URI (`base#/json/pointer`, fragment decoded) → subschema, for every enclosing resource, found by walking the pointer. */
  readonly locations: { get(uri: string): SchemaObject | boolean | undefined; has(uri: string): boolean };
  readonly anchors: Map<string, SchemaObject>;
  readonly dynamicAnchors: Set<string>;
  /** Resource URIs without fragment: the root's base and every embedded `$id`. */
  readonly resources: Map<string, SchemaObject | boolean>;
  readonly refs: RefSite[];
  /** Subschemas applied to the same instance location as their parent. */
  readonly inPlace: Map<SchemaObject, SchemaObject[]>;
  readonly recursiveAnchors: SchemaObject[];
  readonly patterns: { readonly pattern: string; readonly pointer: string }[];
  readonly warnings: SchemaWarning[];
  subschemas: number;
  readonly count: IndexCount;
  /** The root resource's absolute URI (its own `$id` resolved, or the reserved base). */
  rootUri: string;
}

/** How formats are treated: annotations (tool schemas) or the four elicitation formats asserted. */
export type FormatMode = 'annotate' | 'assert-form';

/** Keywords other than subschema keywords whose value may be an object the validator reads. */
const objectValued = new Set(['const', 'default', 'dependentRequired', '$vocabulary']);

const falseMarker = Symbol('schemaval.false');

/** True for the `{"not": {}}` the engine puts where a document had `false`, so messages can say "not allowed". */
export function isFalseSchema(node: unknown): boolean {
  return typeof node === 'object' && node !== null && (node as Record<symbol, unknown>)[falseMarker] === true;
}

/** `false` as an equivalent object schema: validators then report it at a proper keyword location. */
function falseSchema(): SchemaObject {
  const node: SchemaObject = createJsonObject();
  node.not = createJsonObject();
  Object.defineProperty(node, falseMarker, { value: true });
  return node;
}

/** The base URI given to a root without `$id`: reserved (.invalid), never resolvable, never fetched. */
export const rootBase = 'https://schemaval.invalid/schema.json';

class Refuse {
  constructor(readonly refusal: Refusal) {}
}

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

const isSchema = (value: unknown): value is SchemaObject | boolean =>
  typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));

/**
 * Walks every subschema of the engine's copy once: checks keyword types, applies the dialect's rules to the copy
 * (drops what the dialect does not define, formats per mode), and indexes resources, anchors, references and
 * in-place edges for the reference and expansion checks. It counts the pointers the validator would build and what
 * compiling would retain, without building a pointer, and refuses a schema over `maxPointerBytes` or
 * `maxCompiledBytes` before any validator sees it. Returns a refusal for the first problem found.
 */
export function walkSchema(
  root: unknown,
  dialect: Dialect,
  policy: Policy,
  formats: FormatMode,
  copied: { readonly bytes: number; readonly values: number } = { bytes: 0, values: 0 },
): { ok: true; root: SchemaObject | boolean; index: SchemaIndex } | { ok: false; refusal: Refusal } {
  if (root === false) root = falseSchema();
  const keywords = subschemaKeywords(dialect);
  const foreign = foreignKeywords(dialect);
  const legacyRefs = dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07';
  const idKeyword = dialect === 'draft-04' ? 'id' : '$id';
  const otherId = dialect === 'draft-04' ? '$id' : 'id';
  const places = new Map<SchemaObject, Place>();
  const pathOf = (place: Place): string => placePath(places, place);
  const resources = new Map<string, SchemaObject | boolean>();
  // What the index keeps is made outside this function: a closure made here would keep the whole walk alive.
  const index: SchemaIndex = {
    pointerOf: schemaPointers(places),
    locations: schemaLocations(resources, keywords),
    anchors: new Map(),
    dynamicAnchors: new Set(),
    resources,
    refs: [],
    inPlace: new Map(),
    recursiveAnchors: [],
    patterns: [],
    warnings: [],
    subschemas: 0,
    count: { keys: 0, keyBytes: 0, uniqueItems: false },
    rootUri: rootBase,
  };
  const count = index.count;
  const warned = new Set<string>();
  // The message is built only when it can still be kept: messages carry pointers, and building one per subschema
  // would cost what the pointers themselves cost.
  const warn = (code: WarningCode, message: () => string): void => {
    if (index.warnings.length >= 20) return;
    const text = message();
    const key = `${code}\u0000${text}`;
    if (warned.has(key)) return;
    warned.add(key);
    index.warnings.push({ code, message: text });
  };
  function refuse(code: Refusal['code'], message: string): never {
    throw new Refuse({ code, message });
  }

  /**
   * The validator's walks over the current subschema: it keys a subschema once per walk that reaches it (base URI,
   * `#`, the pointer from where the walk started), and at every embedded `$id` it starts one more walk from there per
   * walk that got there, each under the `$id` resolved against that walk's base (cfworker dereference.js). So the
   * walks double at each nested `$id`: `walks`, the sum of their base lengths and of their start offsets are kept,
   * which counts a subschema's keys in constant time. With relative `$id`s the bases differ and the keys are all
   * distinct; with absolute ones they repeat, but are built all the same.
   */
  const walks = { count: 1, bases: rootBase.length, starts: 0 };
  const countKeys = (length: number): void => {
    count.keys += walks.count;
    count.keyBytes += walks.count * (length + 1) + walks.bases - walks.starts;
  };
  /** A reference as the validator resolves and keeps it (`__absolute_ref__`), in each of its two prepared copies. */
  const countRef = (value: string, base: string): void => {
    count.keyBytes += 2 * ((isAbsolute(value) ? 0 : base.length + 1) + uriLength(value));
  };
  /** An anchor keyed by the engine once and by the validator in each walk. */
  const countAnchor = (base: string, name: string): void => {
    count.keys += 1 + walks.count;
    count.keyBytes += base.length + walks.bases + (1 + walks.count) * (1 + uriLength(name));
  };

  const visit = (node: unknown, place: Place, length: number, depth: number, base: string): void => {
    if (!isSchema(node)) refuse('invalid_schema', `#${pathOf(place)}: want a schema (object or boolean), got ${jsonType(node)}`);
    index.subschemas++;
    if (index.subschemas > policy.maxSubschemas) refuse('too_many_subschemas', `more than ${policy.maxSubschemas} subschemas`);
    if (depth > policy.maxSubschemaDepth) {
      refuse('too_deep', `#${pathOf(place)}: subschemas nested deeper than ${policy.maxSubschemaDepth}`);
    }
    const isRoot = place.parent === undefined;
    let embedded: { readonly count: number; readonly bases: number; readonly starts: number } | undefined;
    if (typeof node === 'object') {
      places.set(node, place);
      const at = (): string => `#${pathOf(place)}`;
      for (const keyword of foreign) {
        if (keyword in node) {
          delete node[keyword];
          warn('ignored_keyword', () => `${at()}: "${keyword}" is not part of ${dialect} and is ignored`);
        }
      }
      const wrong = checkKeywordTypes(node, dialect);
      if (wrong !== undefined) refuse('invalid_schema', `${at()}/${wrong}`);
      // An unknown keyword is an annotation: an `$id` or `$anchor` inside it is no identifier, but the validator
      // would index any object it finds, so the copy drops object-valued unknowns (nothing can refer into them).
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (keywords[key] === undefined && !objectValued.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
          delete node[key];
        }
      }
      // Not an identifier in this dialect, but the validator library would read it as one.
      if (typeof node[otherId] === 'string') delete node[otherId];
      if (typeof node.required === 'boolean') {
        delete node.required;
        warn(
          'draft3_required',
          () => `${at()}: "required": true/false is draft-03 syntax and is ignored; list names in the parent's "required"`,
        );
      }
      if (typeof node.format === 'string') {
        // Form formats are checked by our strict checkers, registered with the validator under their own names.
        const strict = formats === 'assert-form' ? formFormatNames.get(node.format) : undefined;
        if (strict === undefined) delete node.format;
        else node.format = strict;
      }
      if (typeof node.$ref === 'string' && legacyRefs) {
        // draft-04…07: everything beside $ref is ignored, an $id included.
        if (idKeyword in node) delete node[idKeyword];
        const ignored = Object.keys(node).filter((key) => key !== '$ref' && !annotationKeywords.has(key));
        if (ignored.length > 0) {
          warn(
            'ref_siblings_ignored',
            () => `${at()}: ${ignored.join(', ')} beside "$ref" ${ignored.length === 1 ? 'is' : 'are'} ignored in ${dialect}`,
          );
        }
      }
      const id = node[idKeyword];
      if (typeof id === 'string') {
        const url =
          parseUri(id, base) ?? refuse('invalid_schema', `${at()}/${idKeyword}: ${JSON.stringify(truncate(id))} is not a URI reference`);
        if (url.hash.length > 1) {
          if (!legacyRefs) refuse('invalid_schema', `${at()}/${idKeyword}: must not have a fragment in ${dialect}`);
          const fragment = decodeFragment(url.hash, at);
          const key = `${withoutHash(url)}#${fragment}`;
          if (index.anchors.has(key))
            refuse('invalid_schema', `${at()}/${idKeyword}: duplicate anchor ${JSON.stringify(truncate(id))} in one resource`);
          index.anchors.set(key, node);
          countAnchor(base, fragment);
        } else {
          base = withoutHash(url);
          if (index.resources.has(base)) refuse('invalid_schema', `${at()}/${idKeyword}: duplicate $id ${JSON.stringify(truncate(id))}`);
          index.resources.set(base, node);
          if (isRoot) {
            index.rootUri = base;
            walks.bases = base.length;
          } else {
            // Every walk here starts another under this `$id`: an absolute one replaces the base, a relative one
            // resolves against it (at most that much longer).
            embedded = { ...walks };
            const idLength = uriLength(id);
            walks.bases += isAbsolute(id) ? walks.count * idLength : walks.bases + walks.count * idLength;
            walks.starts += walks.count * length;
            walks.count *= 2;
          }
        }
      }
      if (typeof node.$anchor === 'string') {
        const key = `${base}#${node.$anchor}`;
        if (index.anchors.has(key))
          refuse('invalid_schema', `${at()}/$anchor: duplicate anchor ${JSON.stringify(truncate(node.$anchor))} in one resource`);
        index.anchors.set(key, node);
        countAnchor(base, node.$anchor);
      }
      if (dialect === '2020-12') {
        if ('$dynamicRef' in node) {
          refuse('unsupported_keyword', `${at()}/$dynamicRef: not enforced by the validator; schemaval refuses rather than ignore it`);
        }
        if (typeof node.$dynamicAnchor === 'string') {
          index.dynamicAnchors.add(`${base}#${node.$dynamicAnchor}`);
          count.keyBytes += base.length + 1 + uriLength(node.$dynamicAnchor);
        }
      }
      if (node.$recursiveAnchor === true) index.recursiveAnchors.push(node);
      if (node.uniqueItems === true) count.uniqueItems = true;
      if (typeof node.pattern === 'string') index.patterns.push(located(node.pattern, places, place, '/pattern'));
      for (const keyword of ['$ref', '$recursiveRef'] as const) {
        const value = node[keyword];
        if (typeof value === 'string' && (keyword === '$ref' || dialect === '2019-09')) {
          index.refs.push(refSite(node, keyword, value, base, pointerAt(places, place, `/${keyword}`)));
          countRef(value, base);
        }
      }
    }
    countKeys(length);
    // A `false` stand-in counts as the one subschema the author wrote; its `not: {}` is ours (one more key, `/not`).
    if (typeof node === 'object' && isFalseSchema(node)) countKeys(length + 4);
    else if (typeof node === 'object') visitChildren(node, length, depth, base);
    if (embedded !== undefined) Object.assign(walks, embedded);
  };

  const visitChildren = (node: SchemaObject, length: number, depth: number, base: string): void => {
    const inPlace: SchemaObject[] = [];
    const refOnly = legacyRefs && typeof node.$ref === 'string';
    const here = (): string => index.pointerOf.get(node) ?? '#';
    for (const keyword of Object.keys(node)) {
      const info = keywords[keyword];
      if (info === undefined) continue;
      const value = node[keyword];
      const keywordLength = length + 1 + uriLength(keyword);
      const where = (): string => `${here()}/${escapeToken(keyword)}`;
      const child = (
        sub: unknown,
        key: string | number | undefined,
        holder: Record<string, unknown> | unknown[],
        subLength: number,
      ): void => {
        if (sub === false) {
          sub = falseSchema();
          (holder as Record<string | number, unknown>)[key ?? keyword] = sub;
        }
        visit(sub, { parent: node, keyword, key }, subLength, depth + 1, base);
        if (info.inPlace && !refOnly && typeof sub === 'object' && sub !== null) inPlace.push(sub as SchemaObject);
      };
      switch (info.shape) {
        case 'schema':
          child(value, undefined, node, keywordLength);
          break;
        case 'schemaOrArray':
          if (Array.isArray(value)) {
            if (dialect === '2020-12')
              warn('legacy_tuple_items', () => `${where()}: an array "items" is draft-07 tuple syntax; read as "prefixItems"`);
            for (const [i, sub] of value.entries()) child(sub, i, value, keywordLength + 1 + digits(i));
          } else child(value, undefined, node, keywordLength);
          break;
        case 'array':
          if (!Array.isArray(value) || value.length === 0) refuse('invalid_schema', `${where()}: want a non-empty array of schemas`);
          for (const [i, sub] of (value as unknown[]).entries()) child(sub, i, value as unknown[], keywordLength + 1 + digits(i));
          break;
        case 'map':
        case 'dependencies':
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            refuse('invalid_schema', `${where()}: want an object, got ${jsonType(value)}`);
          }
          for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
            if (info.shape === 'dependencies' && Array.isArray(sub)) {
              if (!sub.every((item) => typeof item === 'string')) refuse('invalid_schema', `${where()}: want schemas or arrays of names`);
              continue;
            }
            if (keyword === 'patternProperties') index.patterns.push(located(name, places, places.get(node) as Place, `/${keyword}`));
            child(sub, name, value as Record<string, unknown>, keywordLength + 1 + uriLength(name));
          }
          break;
      }
    }
    if (inPlace.length > 0) index.inPlace.set(node, inPlace);
  };

  try {
    index.resources.set(rootBase, root as SchemaObject | boolean);
    visit(root, { parent: undefined, keyword: '', key: undefined }, 0, 0, rootBase);
  } catch (error) {
    if (error instanceof Refuse) return { ok: false, refusal: error.refusal };
    throw error;
  }
  // Pointers first: they cost time as well as memory (V8 hashes a string over 16,383 characters by its length
  // alone, so long keys of one length are compared with one another as each is inserted).
  if (count.keyBytes > policy.maxPointerBytes) {
    return refusal(
      `indexing would build ${bytesText(count.keyBytes)} of subschema pointers (over maxPointerBytes ${bytesText(policy.maxPointerBytes)})`,
    );
  }
  const retained = retainedBytes({ ...copied, subschemas: index.subschemas, ...count });
  if (retained > policy.maxCompiledBytes) {
    return refusal(
      `compiled, this schema would retain ${bytesText(retained)} (over maxCompiledBytes ${bytesText(policy.maxCompiledBytes)})`,
    );
  }
  return { ok: true, root: root as SchemaObject | boolean, index };
}

function refusal(message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { code: 'too_large', message } };
}

/** 2 MiB, 244.1 MB, 900 B: exact for a bound in whole MiB, one decimal otherwise. */
function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} B`;
}

const isAbsolute = (uri: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(uri);

const digits = (i: number): number => (i < 10 ? 1 : i < 100 ? 2 : i < 1000 ? 3 : String(i).length);

/** A pointer token back to the name it escapes; undefined unless it is exactly how the walk would escape one. */
function unescapeToken(token: string): string | undefined {
  if (!token.includes('~')) return token;
  const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
  return escapeToken(name) === token ? name : undefined;
}

/** The pointer of a place below the root, without `#`: parent links followed up, then joined once. */
function placePath(places: ReadonlyMap<SchemaObject, Place>, place: Place): string {
  const segments: string[] = [];
  for (let at: Place | undefined = place; at !== undefined && at.parent !== undefined; at = places.get(at.parent)) {
    segments.push(at.key === undefined ? '' : `/${typeof at.key === 'number' ? at.key : escapeToken(at.key)}`);
    segments.push(`/${escapeToken(at.keyword)}`);
  }
  return segments.reverse().join('');
}

/** `#pointer` + `suffix` of a place, built when called. */
function pointerAt(places: ReadonlyMap<SchemaObject, Place>, place: Place, suffix: string): () => string {
  return () => `#${placePath(places, place)}${suffix}`;
}

function schemaPointers(places: ReadonlyMap<SchemaObject, Place>): SchemaPointers {
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
function schemaLocations(
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
function located(
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

function refSite(node: SchemaObject, keyword: RefSite['keyword'], value: string, base: string, pointer: () => string): RefSite {
  return {
    node,
    keyword,
    value,
    base,
    get pointer() {
      return pointer();
    },
  };
}

/** Parses a URI reference against a base, or undefined when it is not one. */
export function parseUri(reference: string, base: string): URL | undefined {
  try {
    return new URL(reference, base);
  } catch {
    return undefined;
  }
}

/** A URL's text without its fragment. */
export function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** A fragment, percent-decoded; refuses malformed escapes. */
function decodeFragment(hash: string, pointer: () => string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    throw new Refuse({ code: 'invalid_schema', message: `${pointer()}: malformed percent-escape in ${JSON.stringify(truncate(hash))}` });
  }
}

export { decodeFragment as decodeUriFragment };
