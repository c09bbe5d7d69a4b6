import { positiveIntegerText } from '../engine/numbers/index.ts';
import type { Policy } from '../protocol/policy.ts';
import { usageError } from './cli-io.ts';
import type { Command } from './command.ts';

/** Every `Policy` field, each a flag named by its kebab case: `maxSchemaBytes` is `--max-schema-bytes N`. */
export const policyFields = [
  'maxSchemaBytes',
  'maxJsonDepth',
  'maxSubschemaDepth',
  'maxSubschemas',
  'maxExpansion',
  'maxPointerBytes',
  'maxCompiledBytes',
  'maxInstanceBytes',
  'maxInstanceDepth',
  'maxIssues',
  'maxWork',
  'timeBudgetMs',
] as const satisfies readonly (keyof Policy)[];

type PolicyField = (typeof policyFields)[number];

/** `maxSchemaBytes` → `max-schema-bytes`. */
export const flagOf = (field: PolicyField): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The policy flags as `util.parseArgs` options (values are checked by `policyOf`). */
export const policyOptions = Object.fromEntries(policyFields.map((field) => [flagOf(field), { type: 'string' as const }])) as Record<
  string,
  { type: 'string' }
>;

/**
 * The bounds given on the command line, as the `Partial<Policy>` the validator merges over the defaults. A value
 * that is not a positive (safe) integer is a usage error naming the flag.
 */
export function policyOf(values: Readonly<Record<string, unknown>>, command: Command): Partial<Policy> {
  const policy: Partial<Record<PolicyField, number>> = {};
  for (const field of policyFields) {
    const flag = flagOf(field);
    const text = values[flag];
    if (typeof text !== 'string') continue;
    const value = positiveIntegerText(text);
    if (value === undefined) {
      throw usageError(`--${flag} takes a positive integer, got ${JSON.stringify(text)}`, command);
    }
    policy[field] = value;
  }
  return policy;
}

/** The policy flags' part of `lint --help` and `validate --help` (defaults: docs/policy.md). */
export const policyHelp = `policy (docs/policy.md; each N a positive integer, default in brackets):
  --max-schema-bytes N     UTF-8 bytes of a schema's JSON [262144]                          refused too_large
  --max-json-depth N       JSON nesting of a schema document [64]                           refused too_deep
  --max-subschema-depth N  subschema-in-subschema nesting [32]                              refused too_deep
  --max-subschemas N       subschemas in one schema [10000]                                 refused too_many_subschemas
  --max-expansion N        subschemas applying to one value once $refs expand [10000]       refused too_many_subschemas
  --max-pointer-bytes N    characters of the URIs subschemas are indexed by [2097152]       refused too_large
  --max-compiled-bytes N   heap bytes a compiled schema may retain [16777216]               refused too_large
  --max-instance-bytes N   UTF-8 bytes of a value's JSON [1048576]                          invalid at $
  --max-instance-depth N   JSON nesting of a value [64]                                     invalid at $
  --max-issues N           issues reported for one value [100]                              the list is cut
  --max-work N             subschema visits one value may cost [50000]                      invalid at $
  --time-budget-ms N       wall-clock budget of one validation, in ms [250]                 TIMEOUT
`;
