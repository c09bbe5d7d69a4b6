import type { Dialect } from '../protocol/dialect.ts';

/** A subschema object in the engine's copy. */
export type SchemaNode = Record<string, unknown>;

/** One leaf failure in library-neutral form; the engine turns it into an `Issue`. */
export interface LeafFailure {
  /** Decoded JSON Pointer segments from the instance root. */
  readonly instancePath: readonly string[];
  readonly keyword: string;
  /** The subschema that holds `keyword`. */
  readonly schema: SchemaNode;
  /** Keyword-location segments up to that subschema (through `$ref`s), for context. */
  readonly schemaPath: readonly string[];
  /** Inside a `propertyNames` subschema: the failing value is the property's name. */
  readonly propertyName?: true;
  /** `type` failures of every `anyOf`/`oneOf` alternative, merged. */
  readonly types?: readonly string[];
  /** For `anyOf`/`oneOf`: how many alternatives there are and how many matched. */
  readonly alternatives?: { readonly count: number; readonly matched: number };
}

/** A schema compiled by an adapter: validation never throws for bad data; `[]` means valid. */
export interface CompiledAdapterSchema {
  validate(instance: unknown): readonly LeafFailure[];
}

/** What the engine hands an adapter: its own copy, already checked and normalised. */
export interface AdapterCompileInput {
  readonly schema: SchemaNode | boolean;
  readonly dialect: Dialect;
  /** The root's absolute URI as the engine resolved it (its `$id` made absolute, or a reserved base). */
  readonly base: string;
  /** Every subschema holding a `$ref`, so the adapter can confirm it resolves them too. */
  readonly refNodes: readonly SchemaNode[];
  /** Every `$anchor` (and pre-2019 fragment `$id`) as the engine resolved it: absolute URI → subschema. */
  readonly anchors: ReadonlyMap<string, SchemaNode>;
}

/** A JSON Schema validator library behind a narrow interface, so another can be swapped in per instance. */
export interface SchemaValidatorAdapter {
  /** Part of every cache key: two adapters never share a compiled schema. */
  readonly id: string;
  compile(
    input: AdapterCompileInput,
  ): { ok: true; compiled: CompiledAdapterSchema } | { ok: false; code: 'invalid_schema' | 'unresolved_ref'; message: string };
}
