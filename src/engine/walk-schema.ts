import type { Dialect } from '../protocol/dialect.ts';
import type { Policy } from '../protocol/policy.ts';
import type { Refusal } from '../protocol/refusal.ts';
import type { SchemaWarning, WarningCode } from '../protocol/warning.ts';
import { checkKeywordTypes } from './check-keywords.ts';
import { createJsonObject } from './copy-json.ts';
import { formFormatNames } from './form-formats.ts';
import { jsonType } from './json-type.ts';
import { annotationKeywords, foreignKeywords, subschemaKeywords } from './schema-keywords.ts';
import { truncate } from './truncate.ts';

/** A schema object in the engine's own copy. */
export type SchemaObject = Record<string, unknown>;

/** A `$ref` (or 2019-09 `$recursiveRef`) found in the document. */
export interface RefSite {
  readonly node: SchemaObject;
  readonly keyword: '$ref' | '$recursiveRef';
  readonly value: string;
  readonly base: string;
  readonly pointer: string;
}

/** What the static pass learns from one walk over a schema document. */
export interface SchemaIndex {
  readonly pointerOf: Map<SchemaObject, string>;
  /** Absolute URI (`base#/json/pointer`, fragment decoded) → subschema, for every enclosing resource. */
  readonly locations: Map<string, SchemaObject | boolean>;
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
 * in-place edges for the reference and expansion checks. Returns a refusal for the first problem found.
 */
export function walkSchema(
  root: unknown,
  dialect: Dialect,
  policy: Policy,
  formats: FormatMode,
): { ok: true; root: SchemaObject | boolean; index: SchemaIndex } | { ok: false; refusal: Refusal } {
  if (root === false) root = falseSchema();
  const keywords = subschemaKeywords(dialect);
  const foreign = foreignKeywords(dialect);
  const legacyRefs = dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07';
  const idKeyword = dialect === 'draft-04' ? 'id' : '$id';
  const otherId = dialect === 'draft-04' ? '$id' : 'id';
  const index: SchemaIndex = {
    pointerOf: new Map(),
    locations: new Map(),
    anchors: new Map(),
    dynamicAnchors: new Set(),
    resources: new Map(),
    refs: [],
    inPlace: new Map(),
    recursiveAnchors: [],
    patterns: [],
    warnings: [],
    subschemas: 0,
    rootUri: rootBase,
  };
  const warned = new Set<string>();
  const warn = (code: WarningCode, message: string): void => {
    const key = `${code}\u0000${message}`;
    if (warned.has(key) || index.warnings.length >= 20) return;
    warned.add(key);
    index.warnings.push({ code, message });
  };
  function refuse(code: Refusal['code'], message: string): never {
    throw new Refuse({ code, message });
  }

  /** Enclosing resources: their base URI and where their pointers start. */
  const frames: { base: string; start: number }[] = [];

  const register = (node: SchemaObject | boolean, pointer: string): void => {
    for (const frame of frames) {
      const key = `${frame.base}#${pointer.slice(frame.start)}`;
      if (!index.locations.has(key)) index.locations.set(key, node);
    }
  };

  const visit = (node: unknown, pointer: string, depth: number, base: string): void => {
    if (!isSchema(node)) refuse('invalid_schema', `#${pointer}: want a schema (object or boolean), got ${jsonType(node)}`);
    index.subschemas++;
    if (index.subschemas > policy.maxSubschemas) refuse('too_many_subschemas', `more than ${policy.maxSubschemas} subschemas`);
    if (depth > policy.maxSubschemaDepth) {
      refuse('too_deep', `#${pointer}: subschemas nested deeper than ${policy.maxSubschemaDepth}`);
    }
    let pushedFrame = false;
    if (typeof node === 'object') {
      index.pointerOf.set(node, `#${pointer}`);
      for (const keyword of foreign) {
        if (keyword in node) {
          delete node[keyword];
          warn('ignored_keyword', `#${pointer}: "${keyword}" is not part of ${dialect} and is ignored`);
        }
      }
      const wrong = checkKeywordTypes(node, dialect);
      if (wrong !== undefined) refuse('invalid_schema', `#${pointer}/${wrong}`);
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
          `#${pointer}: "required": true/false is draft-03 syntax and is ignored; list names in the parent's "required"`,
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
            `#${pointer}: ${ignored.join(', ')} beside "$ref" ${ignored.length === 1 ? 'is' : 'are'} ignored in ${dialect}`,
          );
        }
      }
      const id = node[idKeyword];
      if (typeof id === 'string') {
        const url =
          parseUri(id, base) ??
          refuse('invalid_schema', `#${pointer}/${idKeyword}: ${JSON.stringify(truncate(id))} is not a URI reference`);
        if (url.hash.length > 1) {
          if (!legacyRefs) refuse('invalid_schema', `#${pointer}/${idKeyword}: must not have a fragment in ${dialect}`);
          const key = `${withoutHash(url)}#${decodeFragment(url.hash, pointer)}`;
          if (index.anchors.has(key))
            refuse('invalid_schema', `#${pointer}/${idKeyword}: duplicate anchor ${JSON.stringify(truncate(id))} in one resource`);
          index.anchors.set(key, node);
        } else {
          base = withoutHash(url);
          if (index.resources.has(base))
            refuse('invalid_schema', `#${pointer}/${idKeyword}: duplicate $id ${JSON.stringify(truncate(id))}`);
          index.resources.set(base, node);
          if (pointer === '') index.rootUri = base;
          frames.push({ base, start: pointer.length });
          pushedFrame = true;
        }
      }
      if (typeof node.$anchor === 'string') {
        const key = `${base}#${node.$anchor}`;
        if (index.anchors.has(key))
          refuse('invalid_schema', `#${pointer}/$anchor: duplicate anchor ${JSON.stringify(truncate(node.$anchor))} in one resource`);
        index.anchors.set(key, node);
      }
      if (dialect === '2020-12') {
        if ('$dynamicRef' in node) {
          refuse('unsupported_keyword', `#${pointer}/$dynamicRef: not enforced by the validator; schemaval refuses rather than ignore it`);
        }
        if (typeof node.$dynamicAnchor === 'string') index.dynamicAnchors.add(`${base}#${node.$dynamicAnchor}`);
      }
      if (node.$recursiveAnchor === true) index.recursiveAnchors.push(node);
      if (typeof node.pattern === 'string') index.patterns.push({ pattern: node.pattern, pointer: `#${pointer}/pattern` });
      for (const keyword of ['$ref', '$recursiveRef'] as const) {
        const value = node[keyword];
        if (typeof value === 'string' && (keyword === '$ref' || dialect === '2019-09')) {
          index.refs.push({ node, keyword, value, base, pointer: `#${pointer}/${keyword}` });
        }
      }
    }
    register(node, pointer);
    // A `false` stand-in counts as the one subschema the author wrote; its `not: {}` is ours.
    if (typeof node === 'object' && !isFalseSchema(node)) visitChildren(node, pointer, depth, base);
    if (pushedFrame) frames.pop();
  };

  const visitChildren = (node: SchemaObject, pointer: string, depth: number, base: string): void => {
    const inPlace: SchemaObject[] = [];
    const refOnly = legacyRefs && typeof node.$ref === 'string';
    for (const keyword of Object.keys(node)) {
      const info = keywords[keyword];
      if (info === undefined) continue;
      const value = node[keyword];
      const at = `${pointer}/${escapeToken(keyword)}`;
      const child = (sub: unknown, subPointer: string, holder: Record<string, unknown> | unknown[], key: string | number): void => {
        if (sub === false) {
          sub = falseSchema();
          (holder as Record<string | number, unknown>)[key] = sub;
        }
        visit(sub, subPointer, depth + 1, base);
        if (info.inPlace && !refOnly && typeof sub === 'object' && sub !== null) inPlace.push(sub as SchemaObject);
      };
      switch (info.shape) {
        case 'schema':
          child(value, at, node, keyword);
          break;
        case 'schemaOrArray':
          if (Array.isArray(value)) {
            if (dialect === '2020-12')
              warn('legacy_tuple_items', `#${at}: an array "items" is draft-07 tuple syntax; read as "prefixItems"`);
            for (const [i, sub] of value.entries()) child(sub, `${at}/${i}`, value, i);
          } else child(value, at, node, keyword);
          break;
        case 'array':
          if (!Array.isArray(value) || value.length === 0) refuse('invalid_schema', `#${at}: want a non-empty array of schemas`);
          for (const [i, sub] of (value as unknown[]).entries()) child(sub, `${at}/${i}`, value as unknown[], i);
          break;
        case 'map':
        case 'dependencies':
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            refuse('invalid_schema', `#${at}: want an object, got ${jsonType(value)}`);
          }
          for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
            if (info.shape === 'dependencies' && Array.isArray(sub)) {
              if (!sub.every((item) => typeof item === 'string')) refuse('invalid_schema', `#${at}: want schemas or arrays of names`);
              continue;
            }
            if (keyword === 'patternProperties') index.patterns.push({ pattern: name, pointer: `#${at}` });
            child(sub, `${at}/${escapeToken(name)}`, value as Record<string, unknown>, name);
          }
          break;
      }
    }
    if (inPlace.length > 0) index.inPlace.set(node, inPlace);
  };

  try {
    const base = rootBase;
    frames.push({ base, start: 0 });
    index.resources.set(base, root as SchemaObject | boolean);
    visit(root, '', 0, base);
    return { ok: true, root: root as SchemaObject | boolean, index };
  } catch (error) {
    if (error instanceof Refuse) return { ok: false, refusal: error.refusal };
    throw error;
  }
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
function decodeFragment(hash: string, pointer: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    throw new Refuse({ code: 'invalid_schema', message: `#${pointer}: malformed percent-escape in ${JSON.stringify(truncate(hash))}` });
  }
}

export { decodeFragment as decodeUriFragment };
