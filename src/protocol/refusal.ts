/**
 * Stable reasons a schema, or a tool definition (`invalid_tool`), is refused before any instance is checked
 * (docs/architecture.md#schema-policy-and-refusal-codes). Never renamed.
 */
export type RefusalCode =
  | 'invalid_schema'
  | 'unsupported_dialect'
  | 'remote_ref'
  | 'unresolved_ref'
  | 'unsupported_keyword'
  | 'invalid_pattern'
  | 'too_large'
  | 'too_deep'
  | 'too_many_subschemas'
  | 'too_slow'
  | 'invalid_tool';

/** A schema the engine will not enforce, and exactly why. */
export interface Refusal {
  readonly code: RefusalCode;
  readonly message: string;
}

/** Every refusal code, for docs, tests and exhaustive checks. */
export const refusalCodes: readonly RefusalCode[] = [
  'invalid_schema',
  'unsupported_dialect',
  'remote_ref',
  'unresolved_ref',
  'unsupported_keyword',
  'invalid_pattern',
  'too_large',
  'too_deep',
  'too_many_subschemas',
  'too_slow',
  'invalid_tool',
];
