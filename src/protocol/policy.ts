/** Every bound the engine enforces; docs/architecture.md#schema-policy-and-refusal-codes gives the defaults. */
export interface Policy {
  /** UTF-8 bytes of a schema's JSON encoding. */
  readonly maxSchemaBytes: number;
  /** JSON nesting of a schema document. */
  readonly maxJsonDepth: number;
  /** Subschema-in-subschema nesting. */
  readonly maxSubschemaDepth: number;
  /** Subschemas in one document. */
  readonly maxSubschemas: number;
  /** Subschemas applied in place to one instance location once references are expanded. */
  readonly maxExpansion: number;
  /** Worker only: wall-clock budget of one validation call. */
  readonly timeBudgetMs: number;
  /** UTF-8 bytes of an instance's JSON encoding. */
  readonly maxInstanceBytes: number;
  /** JSON nesting of an instance. */
  readonly maxInstanceDepth: number;
  /** Issues reported for one instance; the rest are summarised in one last issue. */
  readonly maxIssues: number;
  /** Schema-location visits one instance may cost the validator (expansion × instance size, estimated first). */
  readonly maxWork: number;
  /** Heap bytes a compiled schema may retain, as the policy walk estimates them before compiling. */
  readonly maxCompiledBytes: number;
  /** Characters of the URIs the validator keys subschemas by (base + JSON pointer, per enclosing resource), summed. */
  readonly maxPointerBytes: number;
}
