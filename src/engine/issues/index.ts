// issues/: issues for people: leaf failures described, values shown, issues formatted.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { formatIssue, formatIssues } from './format-issue.ts';
