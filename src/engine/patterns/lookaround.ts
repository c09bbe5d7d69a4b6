import { oneCharacter, push } from './lookahead-fold.ts';
import { type Counted, checkPieceCharacters, maxLookaroundPieces, maxLookaroundSequences, workCounter } from './lookaround-bounds.ts';
import { Parser } from './lookaround-parser.ts';
import { holdsLook, type Node, type Seq, serializeSeq, totalWidth } from './lookaround-tree.ts';
import { Refused } from './translated-pattern.ts';

// Lookaround without backtracking (docs/decisions/019-lookaround.md). A pattern whose every lookaround sits where
// the match position is fixed (after `^` and a fixed-width prefix, or before a fixed-width suffix and `$`) is a
// boolean combination of lookaround-free patterns tested on the same string, each run by the linear-time matcher:
// `^(?=A)B` is `^B` and `^(?:A)`, `(?!A)` a negation, `B(?<=C)$` a suffix match. A lookahead of one character
// (`T(?=\d)`, `(?!$)`) anywhere is folded into what follows it. Anything else is refused, and says why.

/** A test on the whole string: a lookaround-free pattern (or one decomposed again), expected to match or not. */
export interface LookaroundCheck {
  readonly source: string;
  readonly negated: boolean;
}

/**
 * How a pattern with lookaround is answered: it matches when `plain` matches, or when one of `conditional`'s
 * `main` patterns matches and so do (or do not, when negated) all of its checks. All sources are ECMA `u`-flag
 * patterns without lookaround at the top (a check's own body may hold more, decomposed the same way).
 */
export interface LookaroundPlan {
  readonly plain: string | undefined;
  readonly conditional: readonly { readonly main: string; readonly checks: readonly LookaroundCheck[] }[];
}

// The caps live with the rest of the bounds; they are exported here too, as before the split.
export { maxLookaroundPieces, maxLookaroundSequences } from './lookaround-bounds.ts';

export type LookaroundResult = { readonly ok: true; readonly plan: LookaroundPlan } | { readonly ok: false; readonly construct: string };

/** Decomposes a pattern that the native `u`-flag parser accepted (see the module comment). */
export function decomposeLookaround(pattern: string, isScript: (name: string) => boolean): LookaroundResult {
  try {
    const branches = new Parser(pattern, isScript).parse();
    const decomposed = plan(branches);
    const { plain, conditional } = decomposed;
    const pieces = new Set([
      ...(plain === undefined ? [] : [plain]),
      ...conditional.flatMap(({ main, checks }) => [main, ...checks.map((c) => c.source)]),
    ]);
    checkPieceCharacters(pieces, pattern);
    return { ok: true, plan: decomposed };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, construct: error.construct };
    throw error;
  }
}

const lookaheadNotFixed =
  'a lookahead (?= or (?! not at a fixed position (only directly after ^ and a fixed-width prefix, or of one character)';
const lookbehindNotFixed = 'a lookbehind (?<= or (?<! not at a fixed position (only before a fixed-width suffix and $)';

function plan(branches: readonly Seq[]): LookaroundPlan {
  const plain: string[] = [];
  const conditional: { main: string; checks: LookaroundCheck[] }[] = [];
  let sequences = 0;
  const counted = workCounter();
  const resolve = (seq: Seq, checks: readonly LookaroundCheck[]): void => {
    counted(seq.length);
    const at = seq.findIndex((node) => node.kind === 'look');
    if (at < 0) {
      sequences++;
      if (sequences > maxLookaroundSequences) {
        throw new Refused(`lookarounds that decompose into over ${maxLookaroundSequences} alternatives`);
      }
      if (checks.length === 0) plain.push(serializeSeq(seq));
      else conditional.push({ main: serializeSeq(seq), checks: [...checks] });
      return;
    }
    const look = seq[at] as Extract<Node, { kind: 'look' }>;
    const before = seq.slice(0, at);
    const after = seq.slice(at + 1);
    const body = look.alt.map(serializeSeq).join('|');
    if (!look.behind) {
      const k = fixedFromStart(seq, at);
      if (k !== undefined) {
        const source = `^${skip(k)}(?:${body})`;
        resolve([...before, ...after], [...checks, { source, negated: look.negated }]);
        return;
      }
      const one = oneCharacter(look);
      if (one === 'end') {
        resolve([...before, { kind: 'assert', text: '$' }, ...after], checks);
        return;
      }
      if (one !== undefined) {
        for (const rest of push(one, one.negated, after, counted)) resolve([...before, ...rest], checks);
        return;
      }
      throw new Refused(lookaheadNotFixed);
    }
    const k = fixedToEnd(seq, at);
    if (k === undefined) throw new Refused(lookbehindNotFixed);
    const source = `(?:${body})${skip(k)}$`;
    resolve([...before, ...after], [...checks, { source, negated: look.negated }]);
  };
  for (const branch of branches) {
    if (!branch.some(holdsLook)) {
      plain.push(serializeSeq(branch));
      continue;
    }
    for (const seq of flatten(branch, counted)) resolve(seq, []);
  }
  // Alternatives under the same checks share one main pattern.
  const merged = new Map<string, { main: string[]; checks: LookaroundCheck[] }>();
  for (const { main, checks } of conditional) {
    const key = JSON.stringify(checks);
    const known = merged.get(key);
    if (known === undefined) merged.set(key, { main: [main], checks });
    else known.main.push(main);
  }
  const joined = [...merged.values()].map(({ main, checks }) => ({ main: [...new Set(main)].join('|'), checks }));
  const distinct = new Set(joined.flatMap(({ checks }) => checks.map(({ source }) => source)));
  const pieces = (plain.length > 0 ? 1 : 0) + joined.length + distinct.size;
  if (pieces > maxLookaroundPieces) {
    throw new Refused(`lookarounds that decompose into ${pieces} patterns (over ${maxLookaroundPieces})`);
  }
  return { plain: plain.length > 0 ? [...new Set(plain)].join('|') : undefined, conditional: joined };
}

/** `[\s\S]{k}`: exactly k code points, whatever they are. */
function skip(k: number): string {
  if (k > 1000) throw new Refused('a lookaround after a fixed-width run over 1000 characters');
  return k === 0 ? '' : k === 1 ? '[\\s\\S]' : `[\\s\\S]{${k}}`;
}

/**
 * Code points from the start of the string to `seq[at]`, when that is fixed: the sequence holds a `^` with nothing
 * but zero-width items before it (so a match starts at 0), and everything before `at` has a fixed width.
 */
function fixedFromStart(seq: Seq, at: number): number | undefined {
  const anchor = seq.findIndex((node) => node.kind === 'assert' && node.text === '^');
  if (anchor < 0 || totalWidth(seq.slice(0, anchor)) !== 0) return undefined;
  return totalWidth(seq.slice(0, at));
}

/** Code points from `seq[at]` to the end of the string, when that is fixed (a `$` with only zero-width items after). */
function fixedToEnd(seq: Seq, at: number): number | undefined {
  let anchor = -1;
  for (let i = seq.length - 1; i >= 0; i--) {
    const node = seq[i] as Node;
    if (node.kind === 'assert' && node.text === '$') {
      anchor = i;
      break;
    }
  }
  if (anchor < 0 || totalWidth(seq.slice(anchor + 1)) !== 0) return undefined;
  return totalWidth(seq.slice(at + 1));
}

/**
 * The sequences a branch stands for once every group or optional part holding a lookaround is spread out
 * (`^a(?:(?=b)c|d)$` is `^a(?=b)c$` or `^ad$`), so each lookaround is directly in a sequence. A repetition holding
 * one is refused: its position depends on the iteration.
 */
function flatten(seq: Seq, counted: Counted): Seq[] {
  // A plain group of one branch is spread too, so an anchor inside it counts (`(?!^\d+$)(^[a-z\d]+$)`).
  const at = seq.findIndex((node) => (node.kind === 'group' && node.alt.length === 1) || (node.kind !== 'look' && holdsLook(node)));
  if (at < 0) return [seq];
  const node = seq[at] as Node;
  const before = seq.slice(0, at);
  const after = seq.slice(at + 1);
  const spread = (inner: Node): Seq[] => (inner.kind === 'group' ? inner.alt.map((branch) => [...branch]) : [[inner]]);
  let middles: Seq[];
  if (node.kind === 'group') middles = spread(node);
  else if (node.kind === 'quant' && node.max === 1) middles = node.min === 0 ? [...spread(node.node), []] : spread(node.node);
  else throw new Refused('a lookaround inside a repetition');
  const out: Seq[] = [];
  for (const middle of middles) {
    counted(seq.length, middles.length > 1);
    out.push(...flatten([...before, ...middle, ...after], counted));
  }
  return out;
}
