import type { RE2JS } from 're2js';
import { bundledRe2 } from './bundled-re2.ts';

/** re2js's class: what compiles a translated pattern, and what says which Unicode scripts it knows. */
export type Re2 = typeof RE2JS;

let library: Re2 | undefined = bundledRe2;

/**
 * Thrown wherever a pattern needs re2js before anyone has provided it: an operational failure, never a verdict,
 * so no refusal is cached for a schema that was never checked. The code is the one a runtime that will not let
 * patterns run in linear time answers with (`LinearPatternsUnavailable`).
 */
export class Re2Unavailable extends Error {
  readonly code = 'LINEAR_PATTERNS_UNAVAILABLE';
  constructor() {
    super('the linear-time pattern matcher (re2js) could not be loaded in this worker, so no schema with a pattern is checked');
  }
}

/** re2js, or `Re2Unavailable`: call it outside any `try` that turns failures into refusals. */
export function re2(): Re2 {
  if (library === undefined) throw new Re2Unavailable();
  return library;
}

/** Whether re2js is here: linked in (bundled-re2.ts), or provided since. */
export function re2Provided(): boolean {
  return library !== undefined;
}

/** Hands over re2js loaded on demand; patterns compile from then on. `undefined` takes it away (tests). */
export function provideRe2(loaded: Re2 | undefined): void {
  library = loaded;
}
