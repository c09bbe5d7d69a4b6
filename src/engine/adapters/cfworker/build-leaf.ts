// Builds the leaf failure of one collected entry; only reported entries are built, so this runs at most `limit`
// times per collection (plus the failures of a closest branch).
import type { LeafFailure, SchemaNode } from '../../schema/schema-validator-adapter.ts';
import type { Context, Entry, OutputUnitLike } from './leaf-context.ts';
import { has, locate, segmentsOf, valueAt } from './schema-locations.ts';

export const requiredLike = (unit: OutputUnitLike, hasChildren: boolean): boolean =>
  unit.keyword === 'required' || unit.keyword === 'dependentRequired' || (unit.keyword === 'dependencies' && !hasChildren);

/** Builds the leaf of an entry. */
export function build(context: Context, entry: Entry): LeafFailure {
  if (typeof entry !== 'number') return entry.leaf();
  const unit = context.units[entry] as OutputUnitLike;
  const { schema, schemaPath } = locate(context, unit.keywordLocation);
  const keyword = unit.keyword;
  const instancePath = segmentsOf(unit.instanceLocation);
  const propertyName = context.propertyNames?.has(entry) === true ? true : undefined;
  if (keyword === 'type') {
    // No `type` where the walk ended (a subschema it could not locate): no types, and the engine says so.
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
    return propertyName
      ? { schema, schemaPath, instancePath, keyword, types, propertyName }
      : { schema, schemaPath, instancePath, keyword, types };
  }
  let missing: LeafFailure['missing'];
  if (requiredLike(unit, (context.ends[entry] as number) > entry + 1)) {
    const names = missingAt(context, unit, schema);
    missing = names[(context.ordinals?.get(entry) ?? 0) % Math.max(1, names.length)];
  }
  if (propertyName) return { schema, schemaPath, instancePath, keyword, propertyName };
  return missing === undefined ? { schema, schemaPath, instancePath, keyword } : { schema, schemaPath, instancePath, keyword, missing };
}

/** The names a `required`-like keyword misses at one location, in the keyword's own order (as cfworker checks). */
function missingAt(context: Context, unit: OutputUnitLike, schema: SchemaNode): NonNullable<LeafFailure['missing']>[] {
  // A run of units for one keyword at one place comes together: the last answer is usually the one asked again.
  const last = context.lastMissing;
  if (last !== undefined && last.unit.keywordLocation === unit.keywordLocation && last.unit.instanceLocation === unit.instanceLocation) {
    return last.names;
  }
  const names =
    context.missing?.get(missingKey(unit)) ??
    missingNames(unit.keyword, schema, valueAt(context.input.instance, segmentsOf(unit.instanceLocation)));
  // Every answer is kept, the last one apart: a location asked again later is not worked out twice.
  if (last !== undefined) {
    context.missing ??= new Map();
    context.missing.set(missingKey(last.unit), last.names);
  }
  context.lastMissing = { unit, names };
  return names;
}

const missingKey = (unit: OutputUnitLike): string => `${unit.keywordLocation}\u0000${unit.instanceLocation}`;

function missingNames(keyword: string, schema: SchemaNode, value: unknown): NonNullable<LeafFailure['missing']>[] {
  const out: NonNullable<LeafFailure['missing']>[] = [];
  if (keyword === 'required') {
    const required = schema.required;
    if (Array.isArray(required)) for (const name of required) if (typeof name === 'string' && !has(value, name)) out.push({ name });
    return out;
  }
  const dependencies = schema[keyword];
  if (typeof dependencies !== 'object' || dependencies === null) return out;
  for (const requiredBy in dependencies) {
    const needs = (dependencies as Record<string, unknown>)[requiredBy];
    if (!has(value, requiredBy) || !Array.isArray(needs)) continue;
    for (const name of needs) if (typeof name === 'string' && !has(value, name)) out.push({ name, requiredBy });
  }
  return out;
}
