// What validating against one compiled schema needs (validate-instance and the exact-number path).

import type { Policy } from '../../protocol/policy.ts';
import type { CheckedSchema } from '../policy/checked-schema.ts';
import type { CompiledAdapterSchema, SchemaValidatorAdapter } from '../schema/schema-validator-adapter.ts';

/** Everything a compiled schema needs to validate. */
export interface ValidationContext {
  readonly compiled: CompiledAdapterSchema;
  readonly checked: CheckedSchema;
  readonly adapter: SchemaValidatorAdapter;
  readonly policy: Policy;
}
