// Size figures printed beside each fixture, so a reader can place it among real MCP schemas.

/** Keywords whose value is one subschema, an array of them, or a map of them. */
const single = ['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'items'];
const arrays = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const maps = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'];

/** UTF-8 bytes of the JSON text and the number of subschemas (the root included). */
export interface SchemaStats {
  readonly bytes: number;
  readonly subschemas: number;
}

/** Measures a schema without changing it. */
export function schemaStats(schema: unknown): SchemaStats {
  return { bytes: new TextEncoder().encode(JSON.stringify(schema)).length, subschemas: count(schema) };
}

function count(node: unknown): number {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return 1;
  const record = node as Record<string, unknown>;
  let total = 1;
  for (const keyword of single) {
    const value = record[keyword];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) total += count(value);
  }
  for (const keyword of arrays) {
    const value = record[keyword];
    if (Array.isArray(value)) for (const sub of value) total += count(sub);
  }
  for (const keyword of maps) {
    const value = record[keyword];
    if (typeof value === 'object' && value !== null) for (const sub of Object.values(value)) total += count(sub);
  }
  return total;
}
