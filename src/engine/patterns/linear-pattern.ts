import type { RE2JS } from 're2js';
import { createLruCache } from '../core/lru-cache.ts';
import { decomposeLookaround } from './lookaround.ts';
import { nativePatternCost, type PatternCost, re2PatternCost, summedPatternCost } from './pattern-program.ts';
import { re2 as re2Library } from './re2-library.ts';
import { maxProgramInstructions, maxRepeat, translatePattern } from './translate-pattern.ts';
import { isLookaround } from './translated-pattern.ts';

/** A compiled pattern whose `test` is `RegExp.prototype.test` of the `u`-flag pattern, in time linear in the input. */
export interface LinearMatcher {
  test(input: string): boolean;
}

/**
 * A matcher and its cost, or why there is none: `syntax` when the native parser rejects it, `unsupported` when RE2
 * cannot run it (or its program is over `maxProgramInstructions`).
 */
export type LinearPattern =
  | { readonly ok: true; readonly matcher: LinearMatcher; readonly cost: PatternCost }
  | { readonly ok: false; readonly kind: 'syntax' | 'unsupported'; readonly reason: string };

/** Captured at load, before any scope swaps the global: only ever used to parse, or to run a simple pattern. */
const NativeRegExp = RegExp;

/**
 * The cache is bounded in bytes: each entry's program (src/engine/patterns/pattern-program.ts) plus what its lazy DFA holds,
 * re-read after every match, so 8 MiB holds ~300 typical patterns (~24 KiB each) but only ~50 whose DFAs are full
 * (up to `dfaBudget` each). A Workers isolate has 128 MB for everything. The count bound keeps bookkeeping short.
 */
export const maxCachedBytes = 8 * 1024 * 1024;
const maxEntries = 512;
const dfaBudget = 128 * 1024;

interface Entry {
  readonly compiled: LinearPattern;
  /** Bytes counted for the pattern text and its program, and for its DFA when last read. */
  readonly fixedBytes: number;
  dfaBytes: number;
  cached: boolean;
  /** What its lazy DFAs hold now (0 on the native path). */
  readonly dfaUsed: () => number;
}

/** A lookaround body may hold lookarounds, each decomposed in turn (docs/decisions/019-lookaround.md), this deep. */
const maxLookaroundDepth = 4;
const noDfa = (): number => 0;

let cachedBytes = 0;
// A DFA's bytes change after its entry is stored, so they are summed here and the bounds applied by `trim`.
const cache = createLruCache<string, Entry>(Number.POSITIVE_INFINITY, undefined, {
  onDrop: (_, entry) => {
    entry.cached = false;
    cachedBytes -= entry.fixedBytes + entry.dfaBytes;
  },
});

/**
 * Compiles a pattern for linear-time matching, cached (bounded by bytes, see `maxCachedBytes`).
 * The native parser checks the syntax first (parsing never runs the backtracker); the pattern is then
 * translated to RE2 and compiled by re2js. Patterns a backtracker provably runs in linear time (no
 * alternation; no quantifier, or one on a single character after a leading `^`) keep the native RegExp.
 */
export function compileLinearPattern(pattern: string): LinearPattern {
  const known = cache.get(pattern);
  if (known !== undefined) return known.compiled;
  const entry = compileEntry(pattern, true);
  remember(pattern, entry);
  return entry.compiled;
}

/** The cached matcher of a pattern compiled before, if any (no parsing, no eviction bookkeeping). */
export function cachedLinearMatcher(pattern: string): LinearMatcher | undefined {
  const known = cache.peek(pattern)?.compiled;
  return known?.ok ? known.matcher : undefined;
}

/**
 * Ticks per character that testing a string against `pattern` may cost (src/engine/work/estimate-work.ts). A pattern
 * the matcher cannot run is never tested (its schema is refused); it costs `unrunnableCharTicks` should one get here.
 */
export function patternCharTicks(pattern: string): number {
  const compiled = compileLinearPattern(pattern);
  return compiled.ok ? compiled.cost.charTicks : unrunnableCharTicks;
}

export const unrunnableCharTicks = 1 << 20;

/**
 * The program re2js would compile a pattern to, estimated by the translation alone (nothing compiled): its
 * instructions, 0 for a pattern the native fast path keeps, `undefined` for one that is refused anyway.
 * A cached pattern answers with its compiled program.
 */
export function estimatedInstructions(pattern: string): number | undefined {
  const known = cache.peek(pattern)?.compiled;
  if (known !== undefined) return known.ok ? known.cost.instructions : undefined;
  try {
    new NativeRegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return estimate(pattern, 0);
}

function estimate(pattern: string, depth: number): number | undefined {
  const translated = translatePattern(pattern, isRe2Script);
  if (translated.ok) return translated.simple ? 0 : translated.instructions;
  if (!isLookaround(translated.construct) || depth >= maxLookaroundDepth) return undefined;
  const decomposed = decomposeLookaround(pattern, isRe2Script);
  if (!decomposed.ok) return undefined;
  const { plain, conditional } = decomposed.plan;
  const sources = new Set([
    ...(plain === undefined ? [] : [plain]),
    ...conditional.flatMap(({ main, checks }) => [main, ...checks.map((c) => c.source)]),
  ]);
  let sum = 0;
  for (const source of sources) {
    const piece = estimate(source, depth + 1);
    if (piece === undefined) return undefined;
    sum += piece;
  }
  return sum;
}

/** What the cache holds now: entries and bytes counted (for tests and the bench). */
export function linearPatternCacheSize(): { readonly entries: number; readonly bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}

/** The same, always through RE2 and uncached: lets tests compare the translation with the native engine. */
export function compileRe2Pattern(pattern: string): LinearPattern {
  return compileEntry(pattern, false).compiled;
}

function compileEntry(pattern: string, nativeWhenSimple: boolean, depth = 0): Entry {
  const entry: Entry = {
    compiled: { ok: false, kind: 'syntax', reason: '' },
    fixedBytes: 2 * pattern.length,
    dfaBytes: 0,
    cached: false,
    dfaUsed: noDfa,
  };
  const refused = (kind: 'syntax' | 'unsupported', reason: string): Entry => ({ ...entry, compiled: { ok: false, kind, reason } });
  let native: RegExp;
  try {
    native = new NativeRegExp(pattern, 'u');
  } catch {
    return refused('syntax', 'is not a valid regular expression (u flag)');
  }
  const translated = translatePattern(pattern, isRe2Script);
  if (!translated.ok && isLookaround(translated.construct)) return lookaroundEntry(pattern, nativeWhenSimple, depth, entry);
  if (!translated.ok) return refused('unsupported', `uses ${translated.construct}, which the linear-time matcher cannot run`);
  if (translated.simple && nativeWhenSimple) {
    const cost = nativePatternCost(pattern);
    return { ...entry, compiled: { ok: true, matcher: native, cost }, fixedBytes: entry.fixedBytes + cost.bytes };
  }
  // Outside the `try`: a matcher not loaded yet fails the request, it never refuses the pattern.
  const library = re2Library();
  let re2: RE2JS;
  try {
    re2 = library.compile(translated.source);
  } catch (error) {
    return refused('unsupported', re2Reason(error));
  }
  const dfa = boundedDfa(re2);
  if (dfa === undefined) return refused('unsupported', 'cannot be run: the linear-time matcher could not bound its memory');
  const cost = re2PatternCost(re2);
  if (cost === undefined) return refused('unsupported', 'cannot be run: the linear-time matcher could not measure its program');
  if (cost.instructions > maxProgramInstructions) {
    return refused(
      'unsupported',
      `compiles to ${cost.instructions} instructions (over ${maxProgramInstructions}), which the linear-time matcher cannot run`,
    );
  }
  // The DFA grows as strings are matched: its share of the cache is re-read after each match.
  const matcher: LinearMatcher = {
    test(input) {
      const found = re2.test(input);
      if (compiled.cached) recount(compiled);
      return found;
    },
  };
  const compiled: Entry = {
    ...entry,
    compiled: { ok: true, matcher, cost },
    fixedBytes: entry.fixedBytes + cost.bytes,
    dfaUsed: () => dfa.stateBudget - dfa.memBudget,
  };
  return compiled;
}

/**
 * A pattern with lookaround, answered by the lookaround-free patterns it decomposes into (src/engine/patterns/lookaround.ts),
 * each compiled like any other pattern (and refused for the same reasons). Every piece may run on each string, at
 * most once, so the cost is their sum; the matcher stays linear in the input.
 */
function lookaroundEntry(pattern: string, nativeWhenSimple: boolean, depth: number, entry: Entry): Entry {
  const refused = (reason: string): Entry => ({ ...entry, compiled: { ok: false, kind: 'unsupported', reason } });
  if (depth >= maxLookaroundDepth)
    return refused(`uses lookarounds nested over ${maxLookaroundDepth} deep, which the linear-time matcher cannot run`);
  const decomposed = decomposeLookaround(pattern, isRe2Script);
  if (!decomposed.ok) return refused(`uses ${decomposed.construct}, which the linear-time matcher cannot run`);
  const pieces: Entry[] = [];
  const indexes = new Map<string, number>();
  const piece = (source: string): number => {
    const known = indexes.get(source);
    if (known !== undefined) return known;
    pieces.push(compileEntry(source, nativeWhenSimple, depth + 1));
    indexes.set(source, pieces.length - 1);
    return pieces.length - 1;
  };
  const { plain, conditional } = decomposed.plan;
  const plainIndex = plain === undefined ? undefined : piece(plain);
  const alternatives = conditional.map(({ main, checks }) => ({
    main: piece(main),
    checks: checks.map(({ source, negated }) => ({ index: piece(source), negated })),
  }));
  const matchers: LinearMatcher[] = [];
  for (const { compiled } of pieces) {
    // A piece is never a syntax error (it is built from parsed parts); failing closed if one were.
    if (!compiled.ok)
      return compiled.kind === 'syntax' ? refused('uses a lookaround that could not be decomposed') : { ...entry, compiled };
    matchers.push(compiled.matcher);
  }
  const cost = summedPatternCost(pieces.map(({ compiled }) => (compiled as Extract<LinearPattern, { ok: true }>).cost));
  if (cost.instructions > maxProgramInstructions) {
    return refused(
      `decomposes into ${cost.instructions} instructions (over ${maxProgramInstructions}), which the linear-time matcher cannot run`,
    );
  }
  const matcher: LinearMatcher = {
    test(input) {
      // Each piece runs at most once per string: the cost charged is their sum.
      const known: (boolean | undefined)[] = [];
      const run = (index: number): boolean => {
        let found = known[index];
        if (found === undefined) {
          found = (matchers[index] as LinearMatcher).test(input);
          known[index] = found;
        }
        return found;
      };
      let found = plainIndex !== undefined && run(plainIndex);
      for (const { main, checks } of alternatives) {
        if (found) break;
        found = run(main) && checks.every(({ index, negated }) => run(index) !== negated);
      }
      if (compiled.cached) recount(compiled);
      return found;
    },
  };
  const texts = pieces.reduce((sum, { fixedBytes, compiled: c }) => sum + fixedBytes - (c.ok ? c.cost.bytes : 0), 0);
  const compiled: Entry = {
    ...entry,
    compiled: { ok: true, matcher, cost },
    fixedBytes: entry.fixedBytes + texts + cost.bytes,
    dfaUsed: () => pieces.reduce((sum, p) => sum + p.dfaUsed(), 0),
  };
  return compiled;
}

function remember(pattern: string, entry: Entry): void {
  if (entry.fixedBytes > maxCachedBytes) return;
  cache.set(pattern, entry);
  entry.cached = true;
  cachedBytes += entry.fixedBytes + entry.dfaBytes;
  evict();
}

function recount(entry: Entry): void {
  const used = entry.dfaUsed();
  cachedBytes += used - entry.dfaBytes;
  entry.dfaBytes = used;
  if (cachedBytes > maxCachedBytes) evict();
}

/** Drops the least recently used entries until the cache is within its bounds (the newest always stays). */
function evict(): void {
  cache.trim(() => cache.size > 1 && (cache.size > maxEntries || cachedBytes > maxCachedBytes));
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
  return boundedDfa(re2, budget) !== undefined;
}

function boundedDfa(re2: RE2JS, budget = dfaBudget): DfaBudget | undefined {
  const dfa = (re2 as unknown as { re2Input?: { dfa?: Partial<DfaBudget> } }).re2Input?.dfa;
  if (dfa === undefined || typeof dfa.stateBudget !== 'number' || dfa.memBudget !== dfa.stateBudget) return undefined;
  dfa.stateBudget = budget;
  dfa.memBudget = budget;
  return dfa as DfaBudget;
}

function isRe2Script(name: string): boolean {
  const library = re2Library();
  try {
    library.compile(`\\p{${name}}`);
    return true;
  } catch {
    return false;
  }
}
