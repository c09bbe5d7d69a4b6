import type { Issue } from './issue.ts';

/** The outcome of validating one instance; an invalid verdict always names at least one issue. */
export type Verdict = { readonly status: 'valid' } | { readonly status: 'invalid'; readonly issues: readonly [Issue, ...Issue[]] };
