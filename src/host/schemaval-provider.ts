import { type CompileResult, compileSchema, createLruCache } from '../engine/core/index.ts';
import { formatIssues } from '../engine/issues/index.ts';
import { canonicalJson } from '../engine/json/index.ts';
import { resolvePolicy } from '../engine/policy/index.ts';
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
 * cfworker providers with schemaval's policy and messages. Compiled schemas (and refusals) are cached by their
 * canonical JSON, the fingerprint's own preimage (SHA-256 itself is asynchronous in WebCrypto). A refused schema
 * yields a validator that rejects everything with the refusal, so nothing passes unchecked.
 */
export function schemavalProvider(options: SchemavalProviderOptions = {}): SchemavalJsonSchemaValidator {
  const policy = resolvePolicy(options.policy);
  const cache = createLruCache<string, CompileResult>(options.cacheSize ?? 4096);
  return {
    getValidator<T>(schema: object): JsonSchemaValidator<T> {
      let key: string | undefined;
      try {
        key = canonicalJson(schema);
      } catch {
        key = undefined; // no canonical form: compiled without caching (and refused by the policy anyway)
      }
      let result = key === undefined ? undefined : cache.get(key);
      if (result === undefined) {
        result = compileSchema(schema, { policy });
        if (key !== undefined) cache.set(key, result);
      }
      const compiled = result;
      return (input: unknown) => {
        if (!compiled.ok) {
          return { valid: false, data: undefined, errorMessage: `schema refused (${compiled.refusal.code}): ${compiled.refusal.message}` };
        }
        const verdict = compiled.schema.validate(input);
        if (verdict.valid) return { valid: true, data: input as T, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: formatIssues(verdict.issues) };
      };
    },
  };
}
