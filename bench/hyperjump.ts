// @hyperjump/json-schema as a contender: register the schema under its own URI, compile once (async), validate many
// (the returned validator is synchronous). Formats stay annotations, as in schemaval's tool schemas.
import {
  type OutputFormat,
  registerSchema,
  type SchemaObject,
  setShouldValidateFormat,
  type Validator,
  validate,
} from '@hyperjump/json-schema/draft-2020-12';
import '@hyperjump/json-schema/draft-07';
import type { BenchSchema } from './fixtures.ts';

const dialects = { '7': 'http://json-schema.org/draft-07/schema', '2020-12': 'https://json-schema.org/draft/2020-12/schema' } as const;

/** A compiled hyperjump validator for one schema; `format` picks the output (FLAG: verdict only, BASIC: every error). */
export type HyperjumpValidator = (instance: unknown, format?: OutputFormat) => unknown;

let registered = 0;

/** Registers a copy of the schema under a fresh URI and compiles it. */
export async function compileHyperjump(fixture: Pick<BenchSchema, 'schema' | 'draft'>): Promise<HyperjumpValidator> {
  setShouldValidateFormat(false);
  const uri = `https://bench.schemaval.invalid/schema/${++registered}`;
  registerSchema(structuredClone(fixture.schema) as SchemaObject, uri, dialects[fixture.draft]);
  const validator = await validate(uri);
  return (instance, format = 'FLAG') => validator(instance as Parameters<Validator>[0], format);
}
