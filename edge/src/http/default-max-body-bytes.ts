import type { Policy } from '../../../src/protocol/index.ts';

/** A largest schema plus a largest instance plus 64 KiB for the envelope: any body over it would be refused anyway. */
export function defaultMaxBodyBytes(policy: Policy): number {
  return policy.maxSchemaBytes + policy.maxInstanceBytes + 64 * 1024;
}
