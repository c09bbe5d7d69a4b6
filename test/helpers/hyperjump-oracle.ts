// The reference validator for differential tests: @hyperjump/json-schema (a spec-complete implementation that
// shares no code with @cfworker/json-schema). Formats stay annotations, as the engine treats them for tools.
import { registerSchema, setShouldValidateFormat, unregisterSchema, validate } from '@hyperjump/json-schema/draft-2020-12';
import '@hyperjump/json-schema/draft-07';
import type { Json, JsonObject } from './json-values.ts';
import { dialectUris, type GeneratedDialect, type Schema } from './schema-arbitrary.ts';

/** Hyperjump's verdict function for one schema, or why it would not compile the schema. */
export type OracleResult =
  | { readonly ok: true; readonly validate: (instance: Json) => boolean }
  | { readonly ok: false; readonly error: string };

setShouldValidateFormat(false);

let counter = 0;

/**
 * Compiles a schema with hyperjump under a fresh URI (its registry is global and keyed by URI) and removes it
 * from the registry again once compiled; the returned function validates synchronously.
 */
export async function compileWithOracle(schema: Schema, dialect: GeneratedDialect): Promise<OracleResult> {
  counter += 1;
  const uri = `https://schemaval.test/differential/${counter}`;
  try {
    registerSchema(structuredClone(schema) as JsonObject | boolean, uri, dialectUris[dialect]);
    const validator = await validate(uri);
    return { ok: true, validate: (instance) => validator(instance).valid };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    unregisterSchema(uri);
  }
}
