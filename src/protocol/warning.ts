/**
 * Stable codes for schemas that are admitted but not quite as published. Codes are never renamed or removed
 * (docs/architecture.md). `root_not_object` and `missing_input_schema` are no longer emitted: a tool without an
 * `inputSchema`, or with a root other than `"type": "object"`, is malformed in MCP and refused `invalid_tool`
 * (docs/decisions/015-malformed-tools-excluded.md). They stay in this list so that code matching on them compiles.
 */
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
