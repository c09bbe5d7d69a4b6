import type { Issue } from '../protocol/issue.ts';
import type { Policy } from '../protocol/policy.ts';
import type { Verdict } from '../protocol/verdict.ts';
import type { CheckedSchema } from './check-schema.ts';
import { copyJson } from './copy-json.ts';
import { describeFailures } from './describe-failure.ts';
import { exactValidation } from './exact-numbers.ts';
import { jsonPath } from './json-path.ts';
import type { CompiledAdapterSchema, SchemaValidatorAdapter } from './schema-validator-adapter.ts';

/** Everything a compiled schema needs to validate. */
export interface ValidationContext {
  readonly compiled: CompiledAdapterSchema;
  readonly checked: CheckedSchema;
  readonly adapter: SchemaValidatorAdapter;
  readonly policy: Policy;
}

/**
 * Validates a null-prototype copy of the instance within the instance bounds. An instance over a bound is
 * invalid with an issue, never a crash; numbers of magnitude 2^53 or more take the exact path.
 */
export function validateInstance(context: ValidationContext, instance: unknown): Verdict {
  const { policy } = context;
  const copied = copyJson(instance, { maxBytes: policy.maxInstanceBytes, maxDepth: policy.maxInstanceDepth });
  if (!copied.ok) {
    switch (copied.reason) {
      case 'too_deep':
        return invalid([{ path: '$', keyword: 'maxInstanceDepth', message: `nesting deeper than ${policy.maxInstanceDepth}` }]);
      case 'too_large':
        return invalid([{ path: '$', keyword: 'maxInstanceBytes', message: `over ${policy.maxInstanceBytes} bytes of JSON` }]);
      default:
        return invalid([{ path: jsonPath(copied.path), keyword: 'json', message: copied.detail }]);
    }
  }
  let issues: Issue[];
  if (copied.hasHugeNumber) {
    issues = exactValidation(context, copied);
  } else {
    const value = copied.holder[0];
    issues = describeFailures(context.compiled.validate(value), value);
  }
  return issues.length === 0 ? { valid: true } : invalid(dedupe(issues, policy.maxIssues));
}

function invalid(issues: Issue[]): Verdict {
  return { valid: false, issues: issues as [Issue, ...Issue[]] };
}

/** Drops repeats (cfworker reports some failures once per sibling) and caps the list with a final summary. */
function dedupe(issues: readonly Issue[], max: number): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  let dropped = 0;
  for (const issue of issues) {
    const key = `${issue.path}\u0000${issue.keyword}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (out.length < max) out.push(issue);
    else dropped++;
  }
  if (dropped > 0) out.push({ path: '$', keyword: 'maxIssues', message: `${dropped} more issue${dropped === 1 ? '' : 's'} not shown` });
  return out;
}
