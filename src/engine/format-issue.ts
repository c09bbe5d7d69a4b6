import type { Issue } from '../protocol/issue.ts';

/** One line per issue for people: `$.count: got string, want integer`. */
export function formatIssue(issue: Issue): string {
  return `${issue.path}: ${issue.message}`;
}
