import type { Dialect } from '../../protocol/dialect.ts';
import type { Refused } from '../../protocol/outcome.ts';
import type { Policy } from '../../protocol/policy.ts';
import type { Refusal } from '../../protocol/refusal.ts';
import type { WarningCode } from '../../protocol/warning.ts';
import { formFormatNames } from '../forms/form-formats.ts';
import { jsonType } from '../json/json-type.ts';
import { truncate } from '../json/truncate.ts';
import { annotationKeywords, foreignKeywords, subschemaKeywords } from '../schema/schema-keywords.ts';
import { type FormatMode, falseSchema, isFalseSchema, type RefSite, type SchemaIndex, type SchemaObject } from '../schema/schema-types.ts';
import { needsRfcResolution, parseUri, rootBase, unresolvable, withoutHash } from '../schema/schema-uri.ts';
import { uriLength } from '../schema/uri-length.ts';
import { checkKeywordTypes, keywordTypesHold } from './check-keywords.ts';
import { KeyFlag, keyFlags } from './key-flags.ts';
import { retainedBytes } from './retained-bytes.ts';
import { escapeToken, isSchema, located, type Place, placePath, pointerAt, schemaLocations, schemaPointers } from './schema-pointers.ts';

/** Keywords other than subschema keywords whose value may be an object the validator reads. */
const objectValued = new Set(['const', 'default', 'dependentRequired', '$vocabulary']);

class Refuse {
  constructor(readonly refusal: Refusal) {}
}

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
): { status: 'accepted'; root: SchemaObject | boolean; index: SchemaIndex; retained: number } | Refused {
  if (root === false) root = falseSchema();
  const keywords = subschemaKeywords(dialect);
  const foreign = foreignKeywords(dialect);
  const legacyRefs = dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07';
  const idKeyword = dialect === 'draft-04' ? 'id' : '$id';
  const otherId = dialect === 'draft-04' ? '$id' : 'id';
  const flagOf = keyFlags(dialect);
  /** The `KeyFlag`s of a node's keys, and `UnknownObject` for an object-valued key no keyword reads. */
  const scan = (node: SchemaObject, keys: readonly string[]): number => {
    let flags = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      flags |= flagOf.get(key) ?? 0;
      const value = node[key];
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && keywords[key] === undefined && !objectValued.has(key)) {
        flags |= KeyFlag.UnknownObject;
      }
    }
    return flags;
  };
  const places = new Map<SchemaObject, Place>();
  const pathOf = (place: Place): string => placePath(places, place);
  // Message parts are built only when a message is: no closure per node or keyword on the walk itself.
  const atOf = (place: Place): string => `#${pathOf(place)}`;
  const whereOf = (node: SchemaObject, keyword: string): string => `${index.pointerOf.get(node) ?? '#'}/${escapeToken(keyword)}`;
  const resources = new Map<string, SchemaObject | boolean>();
  // What the index keeps is made outside this function: a closure made here would keep the whole walk alive.
  const index: SchemaIndex = {
    pointerOf: schemaPointers(places),
    locations: schemaLocations(resources, keywords),
    anchors: new Map(),
    dynamicAnchors: new Map(),
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
      // One pass over the node's own keys says which of the steps below can apply: a subschema holds a few of the
      // keys they read, so the rest are not looked up (a miss walks the prototype chain).
      let keys = Object.keys(node);
      let flags = scan(node, keys);
      if ((flags & KeyFlag.Foreign) !== 0) {
        for (const keyword of foreign) {
          if (keyword in node) {
            delete node[keyword];
            warn('ignored_keyword', () => `${atOf(place)}: "${keyword}" is not part of ${dialect} and is ignored`);
          }
        }
        keys = Object.keys(node);
        flags = scan(node, keys);
      }
      if (!keywordTypesHold(node, keys, dialect)) {
        const wrong = checkKeywordTypes(node, dialect);
        if (wrong !== undefined) refuse('invalid_schema', `${atOf(place)}/${wrong}`);
      }
      // Whether a key is gone since `keys` was read: the children are then found anew.
      let removed = false;
      // An unknown keyword is an annotation: an `$id` or `$anchor` inside it is no identifier, but the validator
      // would index any object it finds, so the copy drops object-valued unknowns (nothing can refer into them).
      if ((flags & KeyFlag.UnknownObject) !== 0) {
        for (const key of keys) {
          const value = node[key];
          if (
            keywords[key] === undefined &&
            !objectValued.has(key) &&
            typeof value === 'object' &&
            value !== null &&
            !Array.isArray(value)
          ) {
            delete node[key];
          }
        }
        removed = true;
      }
      // Not an identifier in this dialect, but the validator library would read it as one.
      if ((flags & KeyFlag.OtherId) !== 0 && typeof node[otherId] === 'string') {
        delete node[otherId];
        removed = true;
      }
      if ((flags & KeyFlag.Required) !== 0 && typeof node.required === 'boolean') {
        delete node.required;
        removed = true;
        warn(
          'draft3_required',
          () => `${atOf(place)}: "required": true/false is draft-03 syntax and is ignored; list names in the parent's "required"`,
        );
      }
      if ((flags & KeyFlag.Format) !== 0 && typeof node.format === 'string') {
        // Form formats are checked by our strict checkers, registered with the validator under their own names.
        const strict = formats === 'assert-form' ? formFormatNames.get(node.format) : undefined;
        if (strict === undefined) {
          delete node.format;
          removed = true;
        } else node.format = strict;
      }
      if ((flags & KeyFlag.Ref) !== 0 && typeof node.$ref === 'string' && legacyRefs) {
        // draft-04…07: everything beside $ref is ignored, an $id included.
        if (idKeyword in node) {
          delete node[idKeyword];
          removed = true;
        }
        const ignored = Object.keys(node).filter((key) => key !== '$ref' && !annotationKeywords.has(key));
        if (ignored.length > 0) {
          warn(
            'ref_siblings_ignored',
            () => `${atOf(place)}: ${ignored.join(', ')} beside "$ref" ${ignored.length === 1 ? 'is' : 'are'} ignored in ${dialect}`,
          );
        }
      }
      const id = (flags & KeyFlag.Id) !== 0 ? node[idKeyword] : undefined;
      if (typeof id === 'string') {
        const url =
          parseUri(id, base) ??
          refuse('invalid_schema', `${atOf(place)}/${idKeyword}: ${JSON.stringify(truncate(id))} ${unresolvable(id, base)}`);
        // Relative to an opaque base (`urn:…`, `tag:…`), RFC 3986 resolves it and WHATWG URL does not: the copy
        // holds the resolved form, so a library resolving with `new URL` indexes the resource where the engine did.
        if (needsRfcResolution(id, base)) node[idKeyword] = url.href;
        if (url.hash.length > 1) {
          if (!legacyRefs) refuse('invalid_schema', `${atOf(place)}/${idKeyword}: must not have a fragment in ${dialect}`);
          const fragment = decodeFragment(url.hash, () => atOf(place));
          const key = `${withoutHash(url)}#${fragment}`;
          if (index.anchors.has(key))
            refuse('invalid_schema', `${atOf(place)}/${idKeyword}: duplicate anchor ${JSON.stringify(truncate(id))} in one resource`);
          index.anchors.set(key, node);
          countAnchor(base, fragment);
        } else {
          base = withoutHash(url);
          if (index.resources.has(base))
            refuse('invalid_schema', `${atOf(place)}/${idKeyword}: duplicate $id ${JSON.stringify(truncate(id))}`);
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
      if ((flags & KeyFlag.Anchor) !== 0 && typeof node.$anchor === 'string') {
        const key = `${base}#${node.$anchor}`;
        if (index.anchors.has(key))
          refuse('invalid_schema', `${atOf(place)}/$anchor: duplicate anchor ${JSON.stringify(truncate(node.$anchor))} in one resource`);
        index.anchors.set(key, node);
        countAnchor(base, node.$anchor);
      }
      if (dialect === '2020-12') {
        if ((flags & KeyFlag.DynamicAnchor) !== 0 && typeof node.$dynamicAnchor === 'string') {
          const key = `${base}#${node.$dynamicAnchor}`;
          if (!index.dynamicAnchors.has(key)) index.dynamicAnchors.set(key, node);
          count.keyBytes += base.length + 1 + uriLength(node.$dynamicAnchor);
        }
      }
      if ((flags & KeyFlag.RecursiveAnchor) !== 0 && node.$recursiveAnchor === true) index.recursiveAnchors.push(node);
      if ((flags & KeyFlag.UniqueItems) !== 0 && node.uniqueItems === true) count.uniqueItems = true;
      if ((flags & KeyFlag.Pattern) !== 0 && typeof node.pattern === 'string')
        index.patterns.push(located(node.pattern, places, place, '/pattern'));
      if ((flags & KeyFlag.Ref) !== 0) visitRef(node, place, '$ref', base);
      if ((flags & KeyFlag.RecursiveRef) !== 0 && dialect === '2019-09') visitRef(node, place, '$recursiveRef', base);
      countKeys(length);
      // A `false` stand-in counts as the one subschema the author wrote; its `not: true` is ours (one more key, `/not`).
      if (isFalseSchema(node)) countKeys(length + 4);
      else visitChildren(node, removed ? Object.keys(node) : keys, length, depth, base);
    } else countKeys(length);
    if (embedded !== undefined) Object.assign(walks, embedded);
  };

  const visitRef = (node: SchemaObject, place: Place, keyword: '$ref' | '$recursiveRef', base: string): void => {
    const value = node[keyword];
    if (typeof value !== 'string') return;
    index.refs.push(refSite(node, keyword, value, base, pointerAt(places, place, `/${keyword}`)));
    countRef(value, base);
    // As for `$id`: the site keeps the reference as written (for messages), the copy its resolved form.
    const resolved = needsRfcResolution(value, base) ? parseUri(value, base) : undefined;
    if (resolved !== undefined) node[keyword] = resolved.href;
  };

  /** One subschema of `node` under `keyword` (at `key` in `holder`); `keep` collects those validated in place. */
  const visitChild = (
    node: SchemaObject,
    keyword: string,
    keep: SchemaObject[] | undefined,
    sub: unknown,
    key: string | number | undefined,
    holder: Record<string, unknown> | unknown[],
    subLength: number,
    depth: number,
    base: string,
  ): void => {
    if (sub === false) {
      sub = falseSchema();
      (holder as Record<string | number, unknown>)[key ?? keyword] = sub;
    }
    visit(sub, { parent: node, keyword, key }, subLength, depth + 1, base);
    if (keep !== undefined && typeof sub === 'object' && sub !== null) keep.push(sub as SchemaObject);
  };

  const visitChildren = (node: SchemaObject, keys: readonly string[], length: number, depth: number, base: string): void => {
    let inPlace: SchemaObject[] | undefined;
    const refOnly = legacyRefs && typeof node.$ref === 'string';
    for (const keyword of keys) {
      const info = keywords[keyword];
      if (info === undefined) continue;
      const value = node[keyword];
      const keywordLength = length + 1 + uriLength(keyword);
      let keep: SchemaObject[] | undefined;
      if (info.inPlace && !refOnly) {
        inPlace ??= [];
        keep = inPlace;
      }
      switch (info.shape) {
        case 'schema':
          visitChild(node, keyword, keep, value, undefined, node, keywordLength, depth, base);
          break;
        case 'schemaOrArray':
          if (Array.isArray(value)) {
            if (dialect === '2020-12')
              warn(
                'legacy_tuple_items',
                () => `${whereOf(node, keyword)}: an array "items" is draft-07 tuple syntax; read as "prefixItems"`,
              );
            for (let i = 0; i < value.length; i++)
              visitChild(node, keyword, keep, value[i], i, value, keywordLength + 1 + digits(i), depth, base);
          } else visitChild(node, keyword, keep, value, undefined, node, keywordLength, depth, base);
          break;
        case 'array':
          if (!Array.isArray(value) || value.length === 0)
            refuse('invalid_schema', `${whereOf(node, keyword)}: want a non-empty array of schemas`);
          for (let i = 0; i < (value as unknown[]).length; i++)
            visitChild(node, keyword, keep, (value as unknown[])[i], i, value as unknown[], keywordLength + 1 + digits(i), depth, base);
          break;
        case 'map':
        case 'dependencies':
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            refuse('invalid_schema', `${whereOf(node, keyword)}: want an object, got ${jsonType(value)}`);
          }
          for (const name of Object.keys(value as Record<string, unknown>)) {
            const sub = (value as Record<string, unknown>)[name];
            if (info.shape === 'dependencies' && Array.isArray(sub)) {
              if (!sub.every((item) => typeof item === 'string'))
                refuse('invalid_schema', `${whereOf(node, keyword)}: want schemas or arrays of names`);
              continue;
            }
            if (keyword === 'patternProperties') index.patterns.push(located(name, places, places.get(node) as Place, `/${keyword}`));
            visitChild(node, keyword, keep, sub, name, value as Record<string, unknown>, keywordLength + 1 + uriLength(name), depth, base);
          }
          break;
      }
    }
    if (inPlace !== undefined && inPlace.length > 0) index.inPlace.set(node, inPlace);
  };

  try {
    index.resources.set(rootBase, root as SchemaObject | boolean);
    visit(root, { parent: undefined, keyword: '', key: undefined }, 0, 0, rootBase);
  } catch (error) {
    if (error instanceof Refuse) return { status: 'refused', refusal: error.refusal };
    throw error;
  }
  // Pointers first: they cost time as well as memory (V8 hashes a string over 16,383 characters by its length
  // alone, so long keys of one length are compared with one another as each is inserted).
  if (count.keyBytes > policy.maxPointerBytes) {
    return refusal(
      `indexing would build ${bytesText(count.keyBytes)} of subschema pointers (over maxPointerBytes ${bytesText(policy.maxPointerBytes)})`,
    );
  }
  const retained = retainedBytes({
    bytes: copied.bytes,
    values: copied.values,
    subschemas: index.subschemas,
    keys: count.keys,
    keyBytes: count.keyBytes,
    uniqueItems: count.uniqueItems,
  });
  if (retained > policy.maxCompiledBytes) {
    return refusal(
      `compiled, this schema would retain ${bytesText(retained)} (over maxCompiledBytes ${bytesText(policy.maxCompiledBytes)})`,
    );
  }
  return { status: 'accepted', root: root as SchemaObject | boolean, index, retained };
}

function refusal(message: string): Refused {
  return { status: 'refused', refusal: { code: 'too_large', message } };
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

/** A fragment, percent-decoded; refuses malformed escapes. */
function decodeFragment(hash: string, pointer: () => string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    throw new Refuse({ code: 'invalid_schema', message: `${pointer()}: malformed percent-escape in ${JSON.stringify(truncate(hash))}` });
  }
}

export { decodeFragment as decodeUriFragment };
