import { RE2JS } from 're2js';
import { maxRepeat, translatePattern } from './translate-pattern.ts';

/** A compiled pattern whose `test` is `RegExp.prototype.test` of the `u`-flag pattern, in time linear in the input. */
export interface LinearMatcher {
  test(input: string): boolean;
}

/** A matcher, or why there is none: `syntax` when the native parser rejects it, `unsupported` when RE2 cannot run it. */
export type LinearPattern =
  | { readonly ok: true; readonly matcher: LinearMatcher }
  | { readonly ok: false; readonly kind: 'syntax' | 'unsupported'; readonly reason: string };

/** Captured at load, before any scope swaps the global: only ever used to parse, or to run a simple pattern. */
const NativeRegExp = RegExp;

/** Each cached pattern may hold a lazy DFA of up to `dfaBudget`: 256 × 128 KiB bounds the total near 32 MiB. */
const maxEntries = 256;
const maxCachedChars = 1 << 20;
const dfaBudget = 128 * 1024;
const cache = new Map<string, LinearPattern>();
let cachedChars = 0;

/**
 * Compiles a pattern for linear-time matching, cached (bounded by count and by total pattern length).
 * The native parser checks the syntax first (parsing never runs the backtracker); the pattern is then
 * translated to RE2 and compiled by re2js. Patterns a backtracker provably runs in linear time (no
 * alternation; no quantifier, or one on a single character after a leading `^`) keep the native RegExp.
 */
export function compileLinearPattern(pattern: string): LinearPattern {
  const known = cache.get(pattern);
  if (known !== undefined) {
    // Most recently used last, so eviction drops the oldest.
    cache.delete(pattern);
    cache.set(pattern, known);
    return known;
  }
  const compiled = compileUncached(pattern);
  remember(pattern, compiled);
  return compiled;
}

/** The cached matcher of a pattern compiled before, if any (no parsing, no eviction bookkeeping). */
export function cachedLinearMatcher(pattern: string): LinearMatcher | undefined {
  const known = cache.get(pattern);
  return known?.ok ? known.matcher : undefined;
}

/** The same, always through RE2 and uncached: lets tests compare the translation with the native engine. */
export function compileRe2Pattern(pattern: string): LinearPattern {
  return compileUncached(pattern, false);
}

function compileUncached(pattern: string, nativeWhenSimple = true): LinearPattern {
  let native: RegExp;
  try {
    native = new NativeRegExp(pattern, 'u');
  } catch {
    return { ok: false, kind: 'syntax', reason: 'is not a valid regular expression (u flag)' };
  }
  const translated = translatePattern(pattern, isRe2Script);
  if (!translated.ok)
    return { ok: false, kind: 'unsupported', reason: `uses ${translated.construct}, which the linear-time matcher cannot run` };
  if (translated.simple && nativeWhenSimple) return { ok: true, matcher: native };
  try {
    const re2 = RE2JS.compile(translated.source);
    if (!boundDfa(re2))
      return { ok: false, kind: 'unsupported', reason: 'cannot be run: the linear-time matcher could not bound its memory' };
    return { ok: true, matcher: { test: (input) => re2.test(input) } };
  } catch (error) {
    return { ok: false, kind: 'unsupported', reason: re2Reason(error) };
  }
}

function remember(pattern: string, compiled: LinearPattern): void {
  if (pattern.length > maxCachedChars) return;
  cache.set(pattern, compiled);
  cachedChars += pattern.length;
  for (const oldest of cache.keys()) {
    if (cache.size <= maxEntries && cachedChars <= maxCachedChars) break;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
}

/** Names the construct from re2js's message (its syntax errors quote the offending part). */
function re2Reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('invalid repeat count')) {
    return `uses nested repetitions over ${maxRepeat} in total, which the linear-time matcher cannot run`;
  }
  if (message.includes('too large')) return 'is too large for the linear-time matcher';
  return `cannot be compiled by the linear-time matcher (${message.replace(/^error parsing regexp: /, '').slice(0, 80)})`;
}

interface DfaBudget {
  stateBudget: number;
  memBudget: number;
}

/**
 * re2js gives every pattern a lazy DFA whose state cache may grow to 8 MB, with no option to change it; beyond its
 * budget the DFA starts over or falls back to the NFA, both still linear. A smaller budget keeps hundreds of cached
 * patterns within a Workers isolate. It reaches into re2js's internals, so it fails closed (and a test notices) if
 * they change.
 */
export function boundDfa(re2: RE2JS, budget = dfaBudget): boolean {
  const dfa = (re2 as unknown as { re2Input?: { dfa?: Partial<DfaBudget> } }).re2Input?.dfa;
  if (dfa === undefined || typeof dfa.stateBudget !== 'number' || dfa.memBudget !== dfa.stateBudget) return false;
  dfa.stateBudget = budget;
  dfa.memBudget = budget;
  return true;
}

function isRe2Script(name: string): boolean {
  try {
    RE2JS.compile(`\\p{${name}}`);
    return true;
  } catch {
    return false;
  }
}
