import type { Dialect } from '../../protocol/dialect.ts';
import type { Refused } from '../../protocol/outcome.ts';
import type { Refusal } from '../../protocol/refusal.ts';
import type { SchemaIndex } from './schema-types.ts';

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
  /** For an `anyOf`/`oneOf` that nothing matched: the alternative that came closest and its own failures. */
  readonly closest?: { readonly index: number; readonly failures: readonly LeafFailure[] };
  /** For `required`, `dependentRequired` and array-form `dependencies`: the one missing name (and who needs it). */
  readonly missing?: { readonly name: string; readonly requiredBy?: string };
}

/** What the engine knows about an instance before the adapter sees it. */
export interface AdapterValidateOptions {
  /**
   * Every array that a `uniqueItems: true` could apply to was checked (by hashing) and holds no duplicates, so
   * the adapter may skip its own pairwise comparison: the verdict is the same and the cost linear.
   */
  readonly uniqueItemsHold?: boolean;
  /** Stop collecting leaf failures after this many (the engine reports at most `Policy.maxIssues`). */
  readonly maxFailures?: number;
}

/** A schema compiled by an adapter: validation never throws for bad data; `[]` means valid. */
export interface CompiledAdapterSchema {
  /**
   * At most `maxFailures` leaves, then one `maxIssues` leaf if more were left uncollected. May throw a
   * `RangeError` (stack) on pathological input, e.g. in-place chains deep enough that even a short-circuiting
   * walk overflows; the engine turns that into an issue.
   */
  validate(instance: unknown, options?: AdapterValidateOptions): readonly LeafFailure[];
}

/** What the engine hands an adapter: its own copy, already checked and normalised. */
export interface AdapterCompileInput {
  readonly schema: SchemaNode | boolean;
  readonly dialect: Dialect;
  /** The root's absolute URI as the engine resolved it (its `$id` made absolute, or a reserved base). */
  readonly base: string;
  /** Every subschema holding a `$ref`, so the adapter can confirm it resolves them too. */
  readonly refNodes: readonly SchemaNode[];
  /** The engine's own resolution of each `$ref` holder, for any reference the library's indexer misses. */
  readonly refTargets?: ReadonlyMap<SchemaNode, SchemaNode | boolean>;
  /** Every `$anchor` (and pre-2019 fragment `$id`) as the engine resolved it: absolute URI → subschema. */
  readonly anchors: ReadonlyMap<string, SchemaNode>;
  /** Whether any subschema holds a `$ref` or `$recursiveRef`; absent, the adapter assumes one may. */
  readonly referenced?: boolean;
  /**
   * Whether some object of `schema` has an own key `pattern` or `patternProperties` (`hasPatternKeys`), as the
   * engine's copy found while it was made; absent, the adapter finds out itself.
   */
  readonly patternKeys?: boolean;
}

/** What the policy pass learned about a schema, for the adapter's own static checks. Read only: never change it. */
export interface AdapterCheckInput {
  readonly schema: SchemaNode | boolean;
  readonly dialect: Dialect;
  readonly index: SchemaIndex;
  /** Each `$ref`/`$recursiveRef` holder's targets, as the engine resolved them. */
  readonly targets: ReadonlyMap<SchemaNode, readonly (SchemaNode | boolean)[]>;
}

/**
 * A JSON Schema validator library behind a narrow interface, so another can be swapped in per instance. The core
 * never imports an adapter: it is handed one (the default engine, src/engine/index.ts, wires in cfworker's).
 */
export interface SchemaValidatorAdapter {
  /** Part of every cache key: two adapters never share a compiled schema. */
  readonly id: string;
  /**
   * Refuses what this library would enforce wrongly or not at all (its own quirks, not the policy's), after the
   * engine's policy pass admitted the schema: its refusals join the policy's, with the same codes.
   */
  check?(input: AdapterCheckInput): Refusal | undefined;
  compile(input: AdapterCompileInput): { status: 'accepted'; compiled: CompiledAdapterSchema } | Refused;
}
