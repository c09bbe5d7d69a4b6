// The engine's schema node types, the index the policy walk builds, and the `false` schema marker.
import type { SchemaWarning } from '../../protocol/warning.ts';
import { createJsonObject } from '../json/copy-json.ts';

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
  /** Every 2020-12 `$dynamicAnchor` as a plain anchor: absolute URI → subschema (a `$ref` may name one statically). */
  readonly dynamicAnchors: Map<string, SchemaObject>;
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

const falseMarker = Symbol('schemaval.false');

/** True for the `{"not": true}` the engine puts where a document had `false`, so messages can say "not allowed". */
export function isFalseSchema(node: unknown): boolean {
  return typeof node === 'object' && node !== null && (node as Record<symbol, unknown>)[falseMarker] === true;
}

/** `false` as an equivalent object schema: validators then report it at a proper keyword location. */
export function falseSchema(): SchemaObject {
  const node: SchemaObject = createJsonObject();
  node.not = true;
  Object.defineProperty(node, falseMarker, { value: true });
  return node;
}
