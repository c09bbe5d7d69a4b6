import { CharacterReader } from './character-reader.ts';
import { complement, lineTerminators, maxCodePoint, whitespace } from './re2-ranges.ts';
import { Refused } from './translated-pattern.ts';

// Lookaround without backtracking (docs/decisions/019-lookaround.md). A pattern whose every lookaround sits where
// the match position is fixed (after `^` and a fixed-width prefix, or before a fixed-width suffix and `$`) is a
// boolean combination of lookaround-free patterns tested on the same string, each run by the linear-time matcher:
// `^(?=A)B` is `^B` and `^(?:A)`, `(?!A)` a negation, `B(?<=C)$` a suffix match. A lookahead of one character
// (`T(?=\d)`, `(?!$)`) anywhere is folded into what follows it. Anything else is refused, and says why.

/** A set of code points: sorted, disjoint, inclusive ranges. */
type CodePoints = readonly (readonly [number, number])[];

type Node =
  /** One code point; `set` is known unless it names a Unicode property RE2 keeps by name. */
  | { readonly kind: 'atom'; readonly text: string; readonly set: CodePoints | undefined }
  | { readonly kind: 'assert'; readonly text: '^' | '$' | '\\b' | '\\B' }
  | { readonly kind: 'group'; readonly alt: readonly Node[][] }
  | { readonly kind: 'quant'; readonly node: Node; readonly min: number; readonly max: number | undefined }
  | { readonly kind: 'look'; readonly behind: boolean; readonly negated: boolean; readonly alt: readonly Node[][] };

type Seq = readonly Node[];

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

/** Bounds on what one pattern may decompose into: every piece is a program that runs on each string. */
export const maxLookaroundSequences = 32;
export const maxLookaroundPieces = 16;
/** What the pieces may add up to, in characters: 16 times the pattern, at least 4 KiB and at most 256 KiB. */
const maxPieceCharacters = 256 * 1024;
/** Nodes the rewriting may copy in all (~10 ms of work), so a long pattern cannot make it quadratic. */
const maxLookaroundWork = 1 << 21;
/** Steps spreading groups and folding one-character lookaheads may take (each copies part of the pattern). */
const maxLookaroundSteps = 1024;

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
    const characters = [...pieces].reduce((sum, piece) => sum + piece.length, 0);
    const bound = Math.min(maxPieceCharacters, Math.max(4096, 16 * pattern.length));
    if (characters > bound) throw new Refused(`lookarounds that decompose into ${characters} characters of patterns (over ${bound})`);
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
  let steps = 0;
  let work = 0;
  /** A rewriting step (bounded, so is the recursion) that copies `copied` nodes (bounded in all). */
  const counted = (copied: number, step = true): void => {
    if (step) steps++;
    work += copied;
    if (steps > maxLookaroundSteps || work > maxLookaroundWork) {
      throw new Refused(`lookarounds that take over ${maxLookaroundSteps} steps or ${maxLookaroundWork} copies to decompose`);
    }
  };
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

function totalWidth(seq: Seq): number | undefined {
  let sum = 0;
  for (const node of seq) {
    const w = width(node);
    if (w === undefined) return undefined;
    sum += w;
  }
  return sum;
}

/** Code points a node always consumes, or `undefined` when that varies. */
function width(node: Node): number | undefined {
  switch (node.kind) {
    case 'atom':
      return 1;
    case 'assert':
    case 'look':
      return 0;
    case 'group': {
      const widths = node.alt.map(totalWidth);
      const first = widths[0];
      return widths.every((w) => w !== undefined && w === first) ? first : undefined;
    }
    case 'quant': {
      const w = width(node.node);
      if (w === 0) return 0;
      return w !== undefined && node.max === node.min ? w * node.min : undefined;
    }
  }
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case 'atom':
      return false;
    case 'assert':
    case 'look':
      return true;
    case 'group':
      return node.alt.some((seq) => seq.every(nullable));
    case 'quant':
      return node.min === 0 || nullable(node.node);
  }
}

function holdsLook(node: Node): boolean {
  switch (node.kind) {
    case 'look':
      return true;
    case 'group':
      return node.alt.some((seq) => seq.some(holdsLook));
    case 'quant':
      return holdsLook(node.node);
    default:
      return false;
  }
}

/**
 * The sequences a branch stands for once every group or optional part holding a lookaround is spread out
 * (`^a(?:(?=b)c|d)$` is `^a(?=b)c$` or `^ad$`), so each lookaround is directly in a sequence. A repetition holding
 * one is refused: its position depends on the iteration.
 */
function flatten(seq: Seq, counted: (copied: number, step?: boolean) => void): Seq[] {
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

type OneCharacter = { readonly set: CodePoints | undefined; readonly text: string; readonly negated: boolean };

/** A lookahead of one character (`(?=\d)`, `(?!$)` is `(?=[\s\S])`), `'end'` for `(?=$)`, else `undefined`. */
function oneCharacter(look: Extract<Node, { kind: 'look' }>): OneCharacter | 'end' | undefined {
  if (look.alt.length !== 1) return undefined;
  const [only, ...more] = look.alt[0] as Seq;
  if (only === undefined || more.length > 0) return undefined;
  if (only.kind === 'atom') return { set: only.set, text: only.text, negated: look.negated };
  if (only.kind === 'assert' && only.text === '$')
    return look.negated ? { set: [[0, maxCodePoint]], text: '[\\s\\S]', negated: false } : 'end';
  return undefined;
}

/**
 * What `rest` matches when the next character must (or, negated, must not) be in `one`: the lookahead folded into
 * the first character `rest` consumes. `(?=\d)(\d+H)?(\d+S)?$` is `\d+H(\d+S)?$` or `\d+S$` (the empty path
 * meets `$`, where no character follows). Optional parts split the sequence, so this is bounded by `counted`.
 */
function push(one: OneCharacter, negated: boolean, rest: Seq, counted: (copied: number, step?: boolean) => void): Seq[] {
  /** A zero-width item the lookahead passes over, put back in front of every sequence (each copied). */
  const before = (x: Node, seqs: Seq[]): Seq[] => {
    counted(
      seqs.reduce((sum, seq) => sum + seq.length, 0),
      false,
    );
    return seqs.map((seq) => [x, ...seq]);
  };
  const go = (items: Seq): Seq[] => {
    counted(items.length);
    const [x, ...tail] = items;
    if (x === undefined) throw new Refused('a lookahead (?= or (?! at the end of a match that does not end with $');
    switch (x.kind) {
      case 'assert':
        if (x.text === '$') return negated ? [items] : [];
        return before(x, go(tail));
      case 'look':
        return before(x, go(tail));
      case 'atom': {
        const first = restrict(x, one, negated);
        return first === 'none' ? [] : first === 'all' ? [items] : [[first, ...tail]];
      }
      case 'group': {
        const whole = decided(x, one, negated);
        if (whole === 'all') return [items];
        if (whole === 'none') return [];
        return x.alt.flatMap((branch) => go([...branch, ...tail]));
      }
      case 'quant': {
        if (x.max === 0) return go(tail);
        if (nullable(x.node)) throw new Refused('a one-character lookahead before a repetition that may match nothing');
        const whole = decided(x.node, one, negated);
        if (whole !== undefined) {
          const taken = whole === 'all' ? [[...quant(x.node, Math.max(1, x.min), x.max), ...tail]] : [];
          return x.min === 0 ? [...taken, ...go(tail)] : taken;
        }
        const again = quant(x.node, Math.max(0, x.min - 1), x.max === undefined ? undefined : x.max - 1);
        let once: Seq[];
        if (x.node.kind === 'atom') {
          // Kept whole when the lookahead already holds for every character it may take (`(?=\d)\d+`).
          const first = restrict(x.node, one, negated);
          once =
            first === 'none'
              ? []
              : first === 'all'
                ? [[...quant(x.node, Math.max(1, x.min), x.max), ...tail]]
                : [[first, ...again, ...tail]];
        } else {
          once = go([x.node, ...again, ...tail]);
        }
        return x.min === 0 ? [...once, ...go(tail)] : once;
      }
    }
  };
  return go(rest);
}

/**
 * Whether every path of a node that cannot match empty starts with a character the lookahead allows (`'all'`) or
 * none does (`'none'`), so the node is kept whole or dropped; `undefined` when it must be spread out.
 */
function decided(node: Node, one: OneCharacter, negated: boolean): 'all' | 'none' | undefined {
  if (nullable(node) || one.set === undefined) return undefined;
  const first = firstSet(node);
  if (first === undefined) return undefined;
  const kept = negated ? subtract(first, one.set) : intersect(first, one.set);
  if (kept.length === 0) return 'none';
  return sameSet(kept, first) ? 'all' : undefined;
}

/** The code points a non-empty match of the node may start with (`undefined` when a property is kept by name). */
function firstSet(node: Node): CodePoints | undefined {
  switch (node.kind) {
    case 'atom':
      return node.set;
    case 'assert':
    case 'look':
      return [];
    case 'quant':
      return node.max === 0 ? [] : firstSet(node.node);
    case 'group': {
      const all: (readonly [number, number])[] = [];
      for (const seq of node.alt) {
        for (const item of seq) {
          const first = firstSet(item);
          if (first === undefined) return undefined;
          all.push(...first);
          if (!nullable(item)) break;
        }
      }
      return normalize(all);
    }
  }
}

function quant(node: Node, min: number, max: number | undefined): Node[] {
  if (max === 0) return [];
  if (min === 1 && max === 1) return [node];
  return [{ kind: 'quant', node, min, max }];
}

/** An atom restricted to the lookahead's character: all of it, none of it, or a narrower class. */
function restrict(atom: Extract<Node, { kind: 'atom' }>, one: OneCharacter, negated: boolean): Node | 'all' | 'none' {
  if (atom.set !== undefined && one.set !== undefined) {
    const kept = negated ? subtract(atom.set, one.set) : intersect(atom.set, one.set);
    if (kept.length === 0) return 'none';
    if (sameSet(kept, atom.set)) return 'all';
    return { kind: 'atom', text: classText(kept), set: kept };
  }
  const whole = one.set !== undefined && one.set.length === 1 && one.set[0]?.[0] === 0 && one.set[0]?.[1] === maxCodePoint;
  if (whole || atom.text === one.text) return negated ? 'none' : 'all';
  throw new Refused('a one-character lookahead whose Unicode property cannot be compared with the next character');
}

function intersect(a: CodePoints, b: CodePoints): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i] as readonly [number, number];
    const [blo, bhi] = b[j] as readonly [number, number];
    const lo = Math.max(alo, blo);
    const hi = Math.min(ahi, bhi);
    if (lo <= hi) out.push([lo, hi]);
    if (ahi < bhi) i++;
    else j++;
  }
  return out;
}

function subtract(a: CodePoints, b: CodePoints): [number, number][] {
  return intersect(a, complement(b));
}

function sameSet(a: CodePoints, b: CodePoints): boolean {
  return a.length === b.length && a.every(([lo, hi], i) => lo === b[i]?.[0] && hi === b[i]?.[1]);
}

/** Sorts and merges ranges into a set. */
function normalize(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** A set as an ECMA `u`-flag class. */
function classText(set: CodePoints): string {
  const cp = (c: number): string => `\\u{${c.toString(16)}}`;
  return `[${set.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join('')}]`;
}

function serializeSeq(seq: Seq): string {
  return seq.map(serialize).join('');
}

function serialize(node: Node): string {
  switch (node.kind) {
    case 'atom':
    case 'assert':
      return node.text;
    case 'group':
      return `(?:${node.alt.map(serializeSeq).join('|')})`;
    case 'look':
      return `(?${node.behind ? '<' : ''}${node.negated ? '!' : '='}${node.alt.map(serializeSeq).join('|')})`;
    case 'quant': {
      const { min, max } = node;
      const open = min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
      const count = max === min ? `{${min}}` : max === undefined ? open : min === 0 && max === 1 ? '?' : `{${min},${max}}`;
      return `${serialize(node.node)}${count}`;
    }
  }
}

const digits: CodePoints = [[0x30, 0x39]];
const word: CodePoints = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

/**
 * The pattern's structure as a tree, for a pattern the native parser accepted (so the syntax is known good).
 * Lookaround-free parts are kept as their own text; groups lose their captures (no backreference is admitted).
 */
class Parser extends CharacterReader {
  parse(): Seq[] {
    const branches = this.alternation();
    if (this.i < this.p.length) throw new Refused('an unbalanced )');
    return branches;
  }

  private alternation(): Node[][] {
    const { p } = this;
    const branches: Node[][] = [[]];
    while (this.i < p.length && p[this.i] !== ')') {
      const branch = branches[branches.length - 1] as Node[];
      const c = p[this.i] as string;
      if (c === '|') {
        this.i++;
        branches.push([]);
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        const last = branch.pop();
        if (last === undefined) throw new Refused('a quantifier with nothing to repeat');
        branch.push(this.quantifier(last));
      } else {
        branch.push(this.term());
      }
    }
    return branches;
  }

  private quantifier(node: Node): Node {
    const { p } = this;
    const c = p[this.i] as string;
    let min: number;
    let max: number | undefined;
    if (c === '{') {
      const close = p.indexOf('}', this.i);
      const counts = p.slice(this.i + 1, close).split(',');
      this.i = close + 1;
      min = Number(counts[0]);
      max = counts.length === 1 ? min : counts[1] === '' ? undefined : Number(counts[1]);
    } else {
      this.i++;
      min = c === '+' ? 1 : 0;
      max = c === '*' || c === '+' ? undefined : 1;
    }
    // Laziness does not change whether a string matches.
    if (p[this.i] === '?') this.i++;
    return { kind: 'quant', node, min, max };
  }

  private term(): Node {
    const { p } = this;
    const start = this.i;
    const c = p[this.i] as string;
    switch (c) {
      case '(':
        return this.group();
      case '[': {
        this.i++;
        const set = this.classSet();
        return { kind: 'atom', text: p.slice(start, this.i), set };
      }
      case '\\':
        this.i++;
        return this.escapeNode(start);
      case '.':
        this.i++;
        return { kind: 'atom', text: '.', set: complement(lineTerminators) };
      case '^':
      case '$':
        this.i++;
        return { kind: 'assert', text: c };
      default: {
        const cp = p.codePointAt(this.i) as number;
        this.i += cp > 0xffff ? 2 : 1;
        return { kind: 'atom', text: p.slice(start, this.i), set: [[cp, cp]] };
      }
    }
  }

  private group(): Node {
    const { p } = this;
    let look: { behind: boolean; negated: boolean } | undefined;
    if (p.startsWith('(?=', this.i) || p.startsWith('(?!', this.i)) {
      look = { behind: false, negated: p[this.i + 2] === '!' };
      this.i += 3;
    } else if (p.startsWith('(?<=', this.i) || p.startsWith('(?<!', this.i)) {
      look = { behind: true, negated: p[this.i + 3] === '!' };
      this.i += 4;
    } else if (p.startsWith('(?:', this.i)) {
      this.i += 3;
    } else if (p.startsWith('(?<', this.i)) {
      this.i = p.indexOf('>', this.i) + 1;
    } else if (p.startsWith('(?', this.i)) {
      throw new Refused('an inline modifier group (?…)');
    } else {
      this.i++;
    }
    const alt = this.alternation();
    this.i++; // `)`
    return look === undefined ? { kind: 'group', alt } : { kind: 'look', ...look, alt };
  }

  /** An escape outside a class; `i` is past the backslash. */
  private escapeNode(start: number): Node {
    const { p } = this;
    const c = p[this.i] as string;
    const text = (): string => p.slice(start, this.i);
    switch (c) {
      case 'b':
      case 'B':
        this.i++;
        return { kind: 'assert', text: c === 'b' ? '\\b' : '\\B' };
      case 'k':
        throw new Refused('a backreference \\k<…>');
      case 'p':
      case 'P': {
        const property = this.property();
        const set = property.kind === 'ranges' ? normalize(property.ranges) : undefined;
        return { kind: 'atom', text: text(), set: set === undefined ? undefined : c === 'P' ? complement(set) : set };
      }
      default: {
        if (c >= '1' && c <= '9') throw new Refused(`a backreference \\${c}`);
        const shorthand = this.shorthand(c);
        if (shorthand !== undefined) {
          this.i++;
          return { kind: 'atom', text: text(), set: shorthand };
        }
        const cp = this.characterEscape();
        return { kind: 'atom', text: text(), set: [[cp, cp]] };
      }
    }
  }

  private shorthand(c: string): CodePoints | undefined {
    switch (c) {
      case 'd':
        return digits;
      case 'D':
        return complement(digits);
      case 'w':
        return word;
      case 'W':
        return complement(word);
      case 's':
        return whitespace;
      case 'S':
        return complement(whitespace);
      default:
        return undefined;
    }
  }

  /** A `[...]` class as a set (`undefined` when it holds a property RE2 keeps by name); `i` is past the `[`. */
  private classSet(): CodePoints | undefined {
    const { p } = this;
    let negated = false;
    if (p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const items: (readonly [number, number])[] = [];
    let known = true;
    while (p[this.i] !== ']') {
      const first = this.classMember();
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && typeof first === 'number') {
        this.i++;
        const last = this.classMember() as number;
        items.push([first, last]);
      } else if (typeof first === 'number') {
        items.push([first, first]);
      } else if (first === undefined) {
        known = false;
      } else {
        items.push(...first);
      }
    }
    this.i++;
    if (!known) return undefined;
    const set = normalize(items);
    return negated ? complement(set) : set;
  }

  private classMember(): number | CodePoints | undefined {
    const { p } = this;
    if (p[this.i] !== '\\') {
      const cp = p.codePointAt(this.i) as number;
      this.i += cp > 0xffff ? 2 : 1;
      return cp;
    }
    this.i++;
    const c = p[this.i] as string;
    if (c === 'b') {
      this.i++;
      return 0x08;
    }
    if (c === 'p' || c === 'P') {
      const property = this.property();
      if (property.kind !== 'ranges') return undefined;
      const set = normalize(property.ranges);
      return c === 'P' ? complement(set) : set;
    }
    const shorthand = this.shorthand(c);
    if (shorthand !== undefined) {
      this.i++;
      return shorthand;
    }
    return this.characterEscape();
  }
}
