import type { Dialect } from '../../protocol/dialect.ts';
import type { Refused } from '../../protocol/outcome.ts';
import type { Policy } from '../../protocol/policy.ts';
import type { Verdict } from '../../protocol/verdict.ts';
import type { SchemaWarning } from '../../protocol/warning.ts';
import { checkSchema } from '../policy/check-schema.ts';
import { defaultPolicy } from '../policy/policy.ts';
import type { FormatMode, SchemaObject } from '../schema/schema-types.ts';
import type { SchemaValidatorAdapter } from '../schema/schema-validator-adapter.ts';
import { validateInstance } from './validate-instance.ts';
import { validationContext } from './validation-context.ts';

/** A schema that passed the policy and compiled: validate many instances with it. */
export interface CompiledSchema {
  readonly dialect: Dialect;
  readonly warnings: readonly SchemaWarning[];
  /** UTF-8 bytes of the schema's JSON encoding (caches weigh compiled schemas by it). */
  readonly bytes: number;
  /** Subschemas the static pass walked, the root included, and JSON values in the schema: caches weigh by them too. */
  readonly subschemas: number;
  readonly values: number;
  /** Heap bytes this compiled schema retains, estimated before it compiled (`retainedBytes`; caches weigh by it). */
  readonly retained: number;
  /** Validates a JSON value (numbers may be lossless-json `LosslessNumber`s or `bigint`s). Never throws for bad data. */
  validate(instance: unknown): Verdict;
}

export interface CompileSchemaOptions {
  readonly policy?: Policy;
  /** `annotate` (default, tool schemas) or `assert-form` (elicitation: email, uri, date, date-time asserted). */
  readonly formats?: FormatMode;
  /** The validator library; the core has none of its own (the default engine's is cfworker's). */
  readonly adapter?: SchemaValidatorAdapter;
  /** The dialect of a schema without `$schema` (default 2020-12, as the MCP spec says). */
  readonly defaultDialect?: Dialect;
}

export type CompileResult = { readonly status: 'accepted'; readonly schema: CompiledSchema } | Refused;

/**
 * Runs the static policy and the adapter's own checks, then compiles the engine's own copy with the adapter. The
 * input is never mutated.
 */
export function compileSchema(
  schema: unknown,
  options: CompileSchemaOptions & { readonly adapter: SchemaValidatorAdapter },
): CompileResult {
  const policy = options.policy ?? defaultPolicy;
  const adapter = options.adapter;
  const checked = checkSchema(schema, policy, options.formats ?? 'annotate', options.defaultDialect);
  if (checked.status === 'refused') return checked;
  const { root, dialect, index, warnings } = checked.checked;
  const quirk = adapter.check?.({ schema: root, dialect, index, targets: checked.checked.targets });
  if (quirk !== undefined) return { status: 'refused', refusal: quirk };
  const refNodes = index.refs.filter((site) => site.keyword === '$ref').map((site) => site.node);
  const refTargets = new Map<SchemaObject, SchemaObject | boolean>();
  for (const node of refNodes) {
    const found = checked.checked.targets.get(node);
    // A holder of both `$ref` and `$recursiveRef` has two targets: leave it to the adapter's own indexer.
    if (found?.length === 1 && found[0] !== undefined) refTargets.set(node, found[0]);
  }
  const compiled = adapter.compile({
    schema: root,
    dialect,
    base: index.rootUri,
    refNodes,
    refTargets,
    anchors: index.anchors,
    referenced: index.refs.length > 0,
    patternKeys: checked.checked.patternKeys,
  });
  if (compiled.status === 'refused') return compiled;
  const context = validationContext(compiled.compiled, checked.checked, adapter, policy);
  return {
    status: 'accepted',
    schema: {
      dialect,
      warnings,
      bytes: checked.checked.bytes,
      subschemas: index.subschemas,
      values: checked.checked.values,
      retained: checked.checked.retained,
      validate: (instance) => validateInstance(context, instance),
    },
  };
}
