/** Stable codes for schemas that are admitted but not quite as published. */
export type WarningCode =
  | 'draft3_required'
  | 'legacy_tuple_items'
  | 'ref_siblings_ignored'
  | 'root_not_object'
  | 'ignored_keyword'
  | 'missing_input_schema';

/** Something a schema author should fix; the schema is still enforced. */
export interface SchemaWarning {
  readonly code: WarningCode;
  readonly message: string;
}
