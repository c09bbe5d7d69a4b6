// The heap a compiled schema will retain, estimated from what the policy walk counted.

/** What the policy walk counts of a schema for the heap its compiled form retains (walk-schema.ts `IndexCount`). */
export interface RetainedShape {
  /** UTF-8 bytes of the schema's JSON, JSON values in it, and its subschemas. */
  readonly bytes: number;
  readonly values: number;
  readonly subschemas: number;
  /** The validator's index entries (a subschema once per enclosing resource, and anchors) and their characters. */
  readonly keys: number;
  readonly keyBytes: number;
  /** With `uniqueItems: true` the adapter prepares a second copy of everything but the strings. */
  readonly uniqueItems: boolean;
}

/**
 * Heap a compiled schema retains, in bytes, estimated from its shape before anything is compiled: a fixed cost per
 * entry, the strings the engine's copy keeps, a cost per JSON value and per subschema (the engine's index and the
 * validator's copies), and the validator's keys: it files every subschema under its base URI and full JSON pointer,
 * once per enclosing resource, so long names nested deep cost keys × pointer length. Fitted to
 * `process.memoryUsage().heapUsed` after GC (bench/cache-cost.ts --heap): 0.9-1.2 of what real-sized schemas from
 * 37 B to 255 KB retain, up to 2 for long flat arrays of tiny values and 1.4-1.6 for a schema of definitions no walk
 * reaches (no verdict twin is built for it; an over-estimate is safe), and within 2 of pointer-heavy shapes
 * (test/engine/policy/engine-retained-bytes.test.ts). `maxCompiledBytes` bounds it. The keys are counted even for a
 * schema without a `$ref`, whose index the adapter never builds: an over-estimate by their size (3% of the weight
 * of the real corpus's median schema, 13% at most), where leaving them out would under-weigh shapes whose other structures the
 * fitted costs do not cover (nested `$id`s retained 3.5x what the weight without keys would say).
 */
export function retainedBytes(shape: RetainedShape): number {
  const copies = shape.uniqueItems ? 2 : 1;
  const extraKeys = Math.max(0, shape.keys - shape.subschemas);
  return 9_000 + shape.bytes + copies * (560 * shape.subschemas + 24 * shape.values + 64 * extraKeys) + shape.keyBytes;
}
