import { createEngine } from '../engine/index.ts';
import { formatIssues } from '../engine/issues/index.ts';
import type { Policy } from '../protocol/policy.ts';

/**
 * The SDK's synchronous `jsonSchemaValidator` hook, spelled here as both SDK lines define it (v1
 * `@modelcontextprotocol/sdk/validation/types.js`, v2 `@modelcontextprotocol/client`), so that these declarations
 * need neither SDK installed; test/types/schemaval-provider-clients.ts keeps them assignable to both.
 */
export type JsonSchemaValidatorResult<T> =
  | { valid: true; data: T; errorMessage: undefined }
  | { valid: false; data: undefined; errorMessage: string };

/** See `JsonSchemaValidatorResult`: one compiled schema. */
export type JsonSchemaValidator<T> = (input: unknown) => JsonSchemaValidatorResult<T>;

/** See `JsonSchemaValidatorResult`: what the SDKs' `jsonSchemaValidator` option takes. */
export interface SchemavalJsonSchemaValidator {
  getValidator<T>(schema: object): JsonSchemaValidator<T>;
}

export interface SchemavalProviderOptions {
  readonly policy?: Partial<Policy>;
  /** Compiled schemas and refusals kept (default 4,096). */
  readonly cacheSize?: number;
}

/**
 * The engine in-thread behind the MCP SDK's synchronous `jsonSchemaValidator` hook: a drop-in for its ajv and
 * cfworker providers with schemaval's policy and messages. The engine is synchronous, so its own cache (by
 * fingerprint, bounded in entries and bytes) serves the hook as it is. A refused schema yields a validator that
 * rejects everything with the refusal, so nothing passes unchecked.
 */
export function schemavalProvider(options: SchemavalProviderOptions = {}): SchemavalJsonSchemaValidator {
  const engine = createEngine({
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    cacheSize: options.cacheSize ?? 4096,
  });
  return {
    getValidator<T>(schema: object): JsonSchemaValidator<T> {
      const compiled = engine.compile(schema).result;
      return (input: unknown) => {
        if (compiled.status === 'refused') {
          return { valid: false, data: undefined, errorMessage: `schema refused (${compiled.refusal.code}): ${compiled.refusal.message}` };
        }
        const verdict = compiled.schema.validate(input);
        if (verdict.status === 'valid') return { valid: true, data: input as T, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: formatIssues(verdict.issues) };
      };
    },
  };
}
