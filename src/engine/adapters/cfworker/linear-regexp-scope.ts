import { cachedLinearMatcher, compileLinearPattern, type LinearMatcher } from '../../patterns/linear-pattern.ts';

/** Captured at load, before any scope replaces the global. */
const NativeRegExp = RegExp;

/** Thrown when the runtime does not let the scope replace `globalThis.RegExp` (frozen intrinsics, SES lockdown). */
export class LinearPatternsUnavailable extends Error {
  readonly code = 'LINEAR_PATTERNS_UNAVAILABLE';
  constructor() {
    super('this runtime does not allow the linear-time matcher (globalThis.RegExp is not writable)');
  }
}

/**
 * What a library sees as `RegExp` inside a scope: `new RegExp(pattern, 'u')` throws the native SyntaxError for
 * an invalid pattern (cfworker's `format: "regex"` relies on it) and otherwise compiles lazily, so a string
 * that is only checked for syntax never reaches the cache; `test` runs the linear-time matcher.
 */
class LinearRegExp {
  readonly source: string;
  readonly flags: string;
  private matcher: LinearMatcher | undefined;

  constructor(pattern: string, flags?: string) {
    if (flags !== 'u') throw new TypeError('only the u flag is available while patterns run in linear time');
    this.source = String(pattern);
    this.flags = flags;
    // cfworker constructs one per `pattern` check: a pattern compiled before needs no parsing again.
    this.matcher = cachedLinearMatcher(this.source);
    // Parsing only: never runs the backtracker. Throws the native SyntaxError.
    if (this.matcher === undefined) new NativeRegExp(this.source, 'u');
  }

  test(input: string): boolean {
    if (this.matcher === undefined) {
      const compiled = compileLinearPattern(this.source);
      // The engine refuses such schemas at compile time; failing here keeps it closed, never backtracking.
      if (!compiled.ok) throw new Error(`pattern ${compiled.reason}`);
      this.matcher = compiled.matcher;
    }
    return this.matcher.test(String(input));
  }
}

type Global = { RegExp: unknown };

/**
 * Runs `run` with `globalThis.RegExp` replaced by a linear-time matcher, restoring the previous value when it
 * returns or throws. Only code that calls `new RegExp(…)` during `run` is affected (cfworker's `pattern`,
 * `patternProperties` and `format: "regex"`); regex literals keep the native engine. `run` must be synchronous.
 * Nesting is safe. Throws `LinearPatternsUnavailable` rather than let patterns backtrack.
 */
export function withLinearPatterns<T>(run: () => T): T {
  const global = globalThis as unknown as Global;
  const previous = global.RegExp;
  try {
    global.RegExp = LinearRegExp;
  } catch {
    // A frozen global throws in strict code; the identity check below catches a silent failure too.
  }
  if (global.RegExp !== LinearRegExp) throw new LinearPatternsUnavailable();
  try {
    return run();
  } finally {
    global.RegExp = previous;
  }
}

/** Whether this runtime lets `withLinearPatterns` replace the global (checked by trying it). */
export function linearPatternsAvailable(): boolean {
  try {
    return withLinearPatterns(() => true);
  } catch {
    return false;
  }
}
