/** The JSON Schema dialects schemaval accepts. A schema without `$schema` is 2020-12 (MCP spec). */
export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04';
