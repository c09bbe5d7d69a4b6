import type { Issue } from '../../protocol/issue.ts';

/** One line per issue for people: `$.count: got string, want integer`. */
export function formatIssue(issue: Issue): string {
  return `${issue.path}: ${issue.message}`;
}

/** Issues on one line for an error message, `$.a: reason; $.b: reason`, the first `max` of them then a count. */
export function formatIssues(issues: readonly Issue[], max = 10): string {
  const lines = issues.slice(0, max).map(formatIssue);
  if (issues.length > max) lines.push(`… ${issues.length - max} more`);
  return lines.join('; ');
}
