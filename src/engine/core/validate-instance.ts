import type { Issue } from '../../protocol/issue.ts';
import type { Verdict } from '../../protocol/verdict.ts';
import { describeFailures } from '../issues/describe-failure.ts';
import { copyJson } from '../json/copy-json.ts';
import { jsonPath } from '../json/json-path.ts';
import { displayExact, exactOfDouble } from '../numbers/exact-decimal.ts';
import { estimateWork } from '../work/estimate-work.ts';
import { withinBound, workBound } from '../work/work-bound.ts';
import { exactValidation, needsExactPath } from './exact-numbers.ts';
import type { ValidationContext } from './validation-context.ts';

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
  // Bounded by construction: the cost is estimated first, and an instance over the budget never reaches the
  // validator (the exact-number path validates the same values, so the same estimate covers it).
  // A small instance on a schema with a static ceiling (work-bound.ts) is within budget without the co-walk.
  const value = copied.holder[0];
  const exact = needsExactPath(context.checked, copied);
  const bound = workBound(context.checked);
  // Unknown until the estimate hashes the arrays: a ceiling that counts `uniqueItems` charges the pairwise scans,
  // so an instance under it keeps them (the adapter drops `uniqueItems` only when told every array is free of
  // duplicates).
  let uniqueItemsHold = false;
  if (exact || !withinBound(bound, copied, policy.maxWork)) {
    const hugeNumbers = exact ? copied.numbers + context.checked.bigNumbers.length : 0;
    const estimate = estimateWork(context.checked, value, policy.maxWork, { multipleOfCost: 2 * hugeNumbers });
    if (estimate.overBudget) {
      return invalid([{ path: '$', keyword: 'maxWork', message: `checking this value would take more than ${policy.maxWork} steps` }]);
    }
    uniqueItemsHold = estimate.uniqueItemsHold;
  }
  const options = uniqueItemsHold ? context.options.unique : context.options.plain;
  let issues: Issue[];
  try {
    if (exact) issues = exactValidation(context, copied, options);
    else issues = describeFailures(context.compiled.validate(value, options), value, hugeDouble);
  } catch (error) {
    // A call stack the runtime cannot grow (deep in-place chains on a deep value): a verdict, not a crash.
    if (!(error instanceof RangeError)) throw error;
    return invalid([{ path: '$', keyword: 'maxWork', message: 'checking this value needs deeper recursion than the runtime allows' }]);
  }
  return issues.length === 0 ? { status: 'valid' } : invalid(dedupe(issues, policy.maxIssues));
}

/**
 * A double of magnitude 2^53 or more means its exact binary value (docs/dialects.md), so a message prints that value,
 * not the double's shortest text (`18446744073709551616`, not `18446744073709552000`). Only read on failure.
 */
function hugeDouble(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) < 2 ** 53) return undefined;
  return displayExact(exactOfDouble(value));
}

function invalid(issues: Issue[]): Verdict {
  return { status: 'invalid', issues: issues as [Issue, ...Issue[]] };
}

/** Drops repeats (cfworker reports some failures once per sibling) and caps the list with a final summary. */
function dedupe(issues: Issue[], max: number): Issue[] {
  // Most wrong calls have one issue: nothing can repeat, and under a cap of 1 or more it stays as it is.
  if (issues.length === 1 && max >= 1 && (issues[0] as Issue).keyword !== 'maxIssues') return issues;
  const out: Issue[] = [];
  // Every distinct issue, those past the cap included (they are counted): a list while it is short, then a set.
  const distinct: Issue[] = [];
  let seen: Set<string> | undefined;
  let dropped = 0;
  // The adapter's own `maxIssues` issue: it stopped collecting at the cap, so more exist, uncounted.
  let uncounted = false;
  for (const issue of issues) {
    if (issue.keyword === 'maxIssues') {
      uncounted = true;
      continue;
    }
    if (seen === undefined && distinct.length >= shortList) seen = new Set(distinct.map(issueKey));
    if (seen === undefined ? holds(distinct, issue) : !addNew(seen, issueKey(issue))) continue;
    if (seen === undefined) distinct.push(issue);
    if (out.length < max) out.push(issue);
    else dropped++;
  }
  if (uncounted) out.push({ path: '$', keyword: 'maxIssues', message: 'more issues not shown' });
  else if (dropped > 0)
    out.push({ path: '$', keyword: 'maxIssues', message: `${dropped} more issue${dropped === 1 ? '' : 's'} not shown` });
  return out;
}

/** Up to this many distinct issues are compared one by one: cheaper than a key each, for the usual few. */
const shortList = 8;

function holds(list: readonly Issue[], issue: Issue): boolean {
  for (const known of list)
    if (known.path === issue.path && known.keyword === issue.keyword && known.message === issue.message) return true;
  return false;
}
const issueKey = (issue: Issue): string => `${issue.path}\u0000${issue.keyword}\u0000${issue.message}`;

/** Adds `key` to `seen`; false when it was there already. */
function addNew(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}
