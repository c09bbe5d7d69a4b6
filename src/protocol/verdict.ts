import type { Issue } from './issue.ts';

/** The outcome of validating one instance; an invalid verdict always names at least one issue. */
export type Verdict = { readonly valid: true } | { readonly valid: false; readonly issues: readonly [Issue, ...Issue[]] };
