import { type TranslatedProperty, translateProperty } from './translate-property.ts';

/**
 * An ECMA-262 `u`-flag pattern in RE2 syntax with the same `test()` verdict on every string, or the construct
 * that RE2 cannot run. `simple` marks patterns a backtracking engine also runs in linear time (see isSimple);
 * `instructions` estimates the program re2js would compile it to, read as the pattern is scanned.
 */
export type TranslatedPattern =
  | { readonly ok: true; readonly source: string; readonly simple: boolean; readonly instructions: number }
  | { readonly ok: false; readonly construct: string };

/** RE2's largest repetition count. */
export const maxRepeat = 1000;

/**
 * The largest program a pattern may compile to. A counted repetition copies its operand, so `(?:[a-z]{2,5}-){200}`
 * (counts within RE2's limit) compiles to ~2,800 instructions; memory (~160 bytes each), compile time and the cost
 * per character grow with the program, not with the count. Checked on an estimate before re2js compiles anything,
 * and again on the compiled program.
 */
export const maxProgramInstructions = 5000;

const maxCodePoint = 0x10ffff;

/** ECMA WhiteSpace and LineTerminator, which `\s` matches (RE2's `\s` is only [\t\n\f\r ]). */
const whitespace: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** What `.` does not match without the `s` flag. */
const lineTerminators: readonly (readonly [number, number])[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

const anything = `[${rangeItems([[0, maxCodePoint]])}]`;
const nothing = `[^${rangeItems([[0, maxCodePoint]])}]`;

/** Why a pattern cannot be translated; thrown inside the scanner, returned as data at its edge. */
class Refused {
  constructor(readonly construct: string) {}
}

/**
 * Translates a pattern that the native `u`-flag parser already accepted. A linear scanner with class and escape
 * state, not a parser: the native check guarantees the syntax, so it only has to rewrite what RE2 reads
 * differently and stop at what RE2 cannot do (backreferences, lookaround, counts over 1000, some properties).
 * Groups become non-capturing: `test()` never needs captures.
 */
export function translatePattern(pattern: string, isScript: (name: string) => boolean): TranslatedPattern {
  try {
    return new Scanner(pattern, isScript).run();
  } catch (error) {
    if (error instanceof Refused) return { ok: false, construct: error.construct };
    throw error;
  }
}

type Atom = 'none' | 'single' | 'group' | 'assertion';

class Scanner {
  private i = 0;
  private out = '';
  private quantifiers = 0;
  private alternation = false;
  private groupQuantified = false;
  private last: Atom = 'none';
  /** Estimated instructions per open group (the innermost last), and those of the last atom or group. */
  private readonly sizes: number[] = [0];
  private lastSize = 0;

  constructor(
    private readonly p: string,
    private readonly isScript: (name: string) => boolean,
  ) {}

  run(): TranslatedPattern {
    const { p } = this;
    while (this.i < p.length) {
      const c = p[this.i] as string;
      switch (c) {
        case '\\':
          this.i++;
          this.out += this.escape();
          this.atom();
          break;
        case '[':
          this.i++;
          this.out += this.characterClass();
          this.last = 'single';
          this.atom();
          break;
        case '(':
          this.group();
          this.sizes.push(0);
          break;
        case ')': {
          this.i++;
          this.out += ')';
          this.last = 'group';
          const inner = this.sizes.pop() as number;
          this.add(inner);
          this.lastSize = inner;
          break;
        }
        case '|':
          this.i++;
          this.alternation = true;
          this.out += '|';
          this.last = 'none';
          this.add(1);
          break;
        case '*':
        case '+':
        case '?':
          this.i++;
          this.quantifier(c, 1, 1);
          break;
        case '{': {
          const { text, min, max } = this.braces();
          // RE2 writes x{n,m} as n copies and m − n nested optional ones, x{n,} as n copies and a loop.
          this.quantifier(text, Math.max(min, max ?? 1, 1), max === undefined ? 1 : max - min);
          break;
        }
        case '.':
          this.i++;
          this.out += `[^${rangeItems(lineTerminators)}]`;
          this.last = 'single';
          this.atom();
          break;
        case '^':
          this.i++;
          this.out += '^';
          this.last = 'assertion';
          this.atom();
          break;
        case '$':
          // Without the `m` flag ECMA's `$` is the end of input only; say so in RE2 terms.
          this.i++;
          this.out += '\\z';
          this.last = 'assertion';
          this.atom();
          break;
        default: {
          const cp = p.codePointAt(this.i) as number;
          this.i += cp > 0xffff ? 2 : 1;
          this.out += literal(cp);
          this.last = 'single';
          this.atom();
        }
      }
    }
    const instructions = this.sizes.reduce((sum, size) => sum + size, 0);
    return { ok: true, source: this.out, simple: this.isSimple(), instructions };
  }

  /**
   * A backtracking engine needs no more than (input length × pattern length) steps when the pattern has no
   * alternation and either no quantifier at all (no choice point anywhere), or one quantifier on a single
   * character or class after a leading `^` (one choice point with at most input-length options, tried from
   * one start position only).
   */
  private isSimple(): boolean {
    if (this.alternation) return false;
    if (this.quantifiers === 0) return true;
    return this.quantifiers === 1 && !this.groupQuantified && this.p.startsWith('^');
  }

  private group(): void {
    const { p } = this;
    if (p.startsWith('(?=', this.i) || p.startsWith('(?!', this.i)) throw new Refused('a lookahead (?= or (?!');
    if (p.startsWith('(?<=', this.i) || p.startsWith('(?<!', this.i)) throw new Refused('a lookbehind (?<= or (?<!');
    if (p.startsWith('(?:', this.i)) {
      this.i += 3;
    } else if (p.startsWith('(?<', this.i)) {
      // A named group; the name does not matter once groups stop capturing.
      this.i = p.indexOf('>', this.i) + 1;
    } else if (p.startsWith('(?', this.i)) {
      throw new Refused('an inline modifier group (?…)');
    } else {
      this.i += 1;
    }
    this.out += '(?:';
    this.last = 'none';
  }

  /** One instruction: a character, a class, an escape or an assertion. */
  private atom(): void {
    this.add(1);
    this.lastSize = 1;
  }

  private add(instructions: number): void {
    const top = this.sizes.length - 1;
    this.sizes[top] = (this.sizes[top] as number) + instructions;
  }

  /**
   * A quantifier on the last atom or group: `copies` of it in the program and `alternations` choice points. The
   * estimate is checked here, where it grows, so nothing is ever compiled from a pattern far over the limit.
   */
  private quantifier(text: string, copies: number, alternations: number): void {
    this.add(this.lastSize * (copies - 1) + alternations);
    const estimate = this.sizes.reduce((sum, size) => sum + size, 0);
    if (estimate > maxProgramInstructions) {
      throw new Refused(`a repetition that compiles to about ${estimate} instructions (over ${maxProgramInstructions})`);
    }
    this.lastSize *= copies;
    this.quantifiers++;
    if (this.last === 'group') this.groupQuantified = true;
    let lazy = '';
    if (this.p[this.i] === '?') {
      this.i++;
      lazy = '?';
    }
    this.out += text + lazy;
    this.last = 'none';
  }

  /** `{n}`, `{n,}` or `{n,m}` (a lone brace is a syntax error under `u`); counts are written without leading zeros. */
  private braces(): { text: string; min: number; max: number | undefined } {
    const close = this.p.indexOf('}', this.i);
    const body = this.p.slice(this.i + 1, close);
    this.i = close + 1;
    const counts = body.split(',').map((count) => (count === '' ? '' : String(Number(count))));
    if (counts.some((count) => count !== '' && Number(count) > maxRepeat)) {
      throw new Refused(`a repetition count over ${maxRepeat} {${body}}`);
    }
    const min = Number(counts[0]);
    const max = counts.length === 1 ? min : counts[1] === '' ? undefined : Number(counts[1]);
    return { text: `{${counts.join(',')}}`, min, max };
  }

  /** An escape outside a class; `i` is past the backslash. */
  private escape(): string {
    const { p } = this;
    const c = p[this.i] as string;
    switch (c) {
      case 'b':
      case 'B':
        this.i++;
        this.last = 'assertion';
        return `\\${c}`;
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        this.i++;
        this.last = 'single';
        return `\\${c}`;
      case 's':
        this.i++;
        this.last = 'single';
        return `[${rangeItems(whitespace)}]`;
      case 'S':
        this.i++;
        this.last = 'single';
        return `[^${rangeItems(whitespace)}]`;
      case 'p':
      case 'P': {
        this.last = 'single';
        const property = this.property();
        if (property.kind === 'ranges') return `[${c === 'P' ? '^' : ''}${rangeItems(property.ranges)}]`;
        const items = property.names.map((name) => `\\p{${name}}`).join('');
        if (c === 'p') return property.names.length === 1 ? items : `[${items}]`;
        return `[^${items}]`;
      }
      case 'k':
        throw new Refused('a backreference \\k<…>');
      default:
        if (c >= '1' && c <= '9') throw new Refused(`a backreference \\${c}`);
        this.last = 'single';
        return literal(this.characterEscape());
    }
  }

  /** `\p{…}` or `\P{…}`; `i` is at the `p`. */
  private property(): TranslatedProperty {
    const close = this.p.indexOf('}', this.i);
    const body = this.p.slice(this.i + 2, close);
    const negated = this.p[this.i] === 'P';
    this.i = close + 1;
    const translated = translateProperty(body, this.isScript);
    if (translated === undefined) throw new Refused(`the Unicode property \\${negated ? 'P' : 'p'}{${body}}`);
    return translated;
  }

  /** A character escape (`\n`, `\x41`, `\u{1F600}`, `\cJ`, `\0`, `\/`, …) as one code point; `i` is past `\`. */
  private characterEscape(): number {
    const { p } = this;
    const c = p[this.i] as string;
    this.i++;
    switch (c) {
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case '0':
        return 0;
      case 'c': {
        const letter = p.charCodeAt(this.i);
        this.i++;
        return letter % 32;
      }
      case 'x': {
        const value = Number.parseInt(p.slice(this.i, this.i + 2), 16);
        this.i += 2;
        return value;
      }
      case 'u':
        return this.unicodeEscape();
      default: {
        // An identity escape: a syntax character, `/`, or `-` inside a class.
        const cp = p.codePointAt(this.i - 1) as number;
        if (cp > 0xffff) this.i++;
        return cp;
      }
    }
  }

  /** `\u{…}`, `\uXXXX`, or a `\uD83D\uDE00` pair, which the `u` flag reads as one code point. */
  private unicodeEscape(): number {
    const { p } = this;
    if (p[this.i] === '{') {
      const close = p.indexOf('}', this.i);
      const value = Number.parseInt(p.slice(this.i + 1, close), 16);
      this.i = close + 1;
      return value;
    }
    const unit = Number.parseInt(p.slice(this.i, this.i + 4), 16);
    this.i += 4;
    if (unit >= 0xd800 && unit <= 0xdbff && p.startsWith('\\u', this.i) && /^[0-9a-fA-F]{4}$/.test(p.slice(this.i + 2, this.i + 6))) {
      const trail = Number.parseInt(p.slice(this.i + 2, this.i + 6), 16);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        this.i += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (trail - 0xdc00);
      }
    }
    return unit;
  }

  /** A `[...]` class; `i` is past the `[`. */
  private characterClass(): string {
    const { p } = this;
    let negated = false;
    if (p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let items = '';
    while (p[this.i] !== ']') {
      const first = this.classAtom();
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && typeof first === 'number') {
        this.i++;
        const last = this.classAtom();
        items += `${literal(first)}-${literal(last as number)}`;
      } else {
        items += typeof first === 'number' ? literal(first) : first;
      }
    }
    this.i++;
    if (items === '') return negated ? anything : nothing;
    return `[${negated ? '^' : ''}${items}]`;
  }

  /** One class member: a code point, or the RE2 class items of an escape like `\d`, `\s`, `\p{L}`. */
  private classAtom(): number | string {
    const { p } = this;
    if (p[this.i] !== '\\') {
      const cp = p.codePointAt(this.i) as number;
      this.i += cp > 0xffff ? 2 : 1;
      return cp;
    }
    this.i++;
    const c = p[this.i] as string;
    switch (c) {
      case 'b':
        this.i++;
        return 0x08;
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        this.i++;
        return `\\${c}`;
      case 's':
        this.i++;
        return rangeItems(whitespace);
      case 'S':
        this.i++;
        return rangeItems(complement(whitespace));
      case 'p':
      case 'P': {
        const property = this.property();
        if (property.kind === 'ranges') return rangeItems(c === 'P' ? complement(property.ranges) : property.ranges);
        if (c === 'p') return property.names.map((name) => `\\p{${name}}`).join('');
        if (property.names.length === 1) return `\\P{${property.names[0]}}`;
        // RE2 cannot negate a union inside a class.
        throw new Refused(`a negated property \\P{…} of several categories inside a class`);
      }
      default:
        return this.characterEscape();
    }
  }
}

/** A code point as RE2 reads it literally: letters and digits as is, anything else as `\x{…}`. */
function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return `\\x{${cp.toString(16)}}`;
}

function rangeItems(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? literal(lo) : `${literal(lo)}-${literal(hi)}`)).join('');
}

/** The code points not in sorted, disjoint `ranges`. */
function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= maxCodePoint) out.push([next, maxCodePoint]);
  return out;
}
