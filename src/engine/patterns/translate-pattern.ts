import { CharacterReader } from './character-reader.ts';
import { maxProgramInstructions, maxRepeat } from './pattern-limits.ts';
import { lineTerminators, literal, rangeItems, whitespace } from './re2-ranges.ts';
import { lookaheadConstruct, lookbehindConstruct, Refused, type TranslatedPattern } from './translated-pattern.ts';

// Importers keep reading the limits and the result type from the translator, as before the split.
export { maxProgramInstructions, maxRepeat } from './pattern-limits.ts';
export type { TranslatedPattern } from './translated-pattern.ts';

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

/** The pattern's structure (groups, alternation, quantifiers) and its size estimate; characters come from the reader. */
class Scanner extends CharacterReader {
  private out = '';
  private quantifiers = 0;
  private alternation = false;
  private groupQuantified = false;
  /** `\b` or `\B` outside a class: V8 tries them between the halves of a surrogate pair (see isSimple). */
  private wordBoundary = false;
  private last: Atom = 'none';
  /** Estimated instructions per open group (the innermost last), and those of the last atom or group. */
  private readonly sizes: number[] = [0];
  private lastSize = 0;

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
   * one start position only). Never with `\b` or `\B`: V8 (Node 20) searches a `u`-flag pattern from every
   * code unit, so `\B` holds between the two halves of a surrogate pair (`/\B/u.test("b🙏b")` is true, false
   * under ECMA-262, which reads the string by code point); RE2 answers right.
   */
  private isSimple(): boolean {
    if (this.alternation || this.wordBoundary) return false;
    if (this.quantifiers === 0) return true;
    return this.quantifiers === 1 && !this.groupQuantified && this.p.startsWith('^');
  }

  private group(): void {
    const { p } = this;
    if (p.startsWith('(?=', this.i) || p.startsWith('(?!', this.i)) throw new Refused(lookaheadConstruct);
    if (p.startsWith('(?<=', this.i) || p.startsWith('(?<!', this.i)) throw new Refused(lookbehindConstruct);
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
        this.wordBoundary = true;
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
}
