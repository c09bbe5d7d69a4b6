// What validating against one compiled schema needs (validate-instance and the exact-number path).

import type { Policy } from '../../protocol/policy.ts';
import type { CheckedSchema } from '../policy/checked-schema.ts';
import type { AdapterValidateOptions, CompiledAdapterSchema, SchemaValidatorAdapter } from '../schema/schema-validator-adapter.ts';

/** Everything a compiled schema needs to validate. */
export interface ValidationContext {
  readonly compiled: CompiledAdapterSchema;
  readonly checked: CheckedSchema;
  readonly adapter: SchemaValidatorAdapter;
  readonly policy: Policy;
  /** The adapter's two option sets, made once: with and without duplicate-free arrays (validate-instance.ts). */
  readonly options: { readonly plain: AdapterValidateOptions; readonly unique: AdapterValidateOptions };
}

/** The context of one compiled schema. */
export function validationContext(
  compiled: CompiledAdapterSchema,
  checked: CheckedSchema,
  adapter: SchemaValidatorAdapter,
  policy: Policy,
): ValidationContext {
  const maxFailures = policy.maxIssues + 1;
  const options = { plain: { uniqueItemsHold: false, maxFailures }, unique: { uniqueItemsHold: true, maxFailures } };
  return { compiled, checked, adapter, policy, options };
}
