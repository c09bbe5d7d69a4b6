import { anything, complement, literal, nothing, rangeItems, whitespace } from './re2-ranges.ts';
import { type TranslatedProperty, translateProperty } from './translate-property.ts';
import { Refused } from './translated-pattern.ts';

/**
 * The reading of what stands for characters in a pattern: `[...]` classes, character escapes and `\p{…}`. Kept
 * apart from the translator's structure (groups, quantifiers, size) because none of it depends on that state;
 * the translator extends this class so both move one cursor `i` over the same pattern `p`.
 */
export abstract class CharacterReader {
  protected i = 0;

  constructor(
    protected readonly p: string,
    private readonly isScript: (name: string) => boolean,
  ) {}

  /** `\p{…}` or `\P{…}`; `i` is at the `p`. */
  protected property(): TranslatedProperty {
    const close = this.p.indexOf('}', this.i);
    const body = this.p.slice(this.i + 2, close);
    const negated = this.p[this.i] === 'P';
    this.i = close + 1;
    const translated = translateProperty(body, this.isScript);
    if (translated === undefined) throw new Refused(`the Unicode property \\${negated ? 'P' : 'p'}{${body}}`);
    return translated;
  }

  /** A character escape (`\n`, `\x41`, `\u{1F600}`, `\cJ`, `\0`, `\/`, …) as one code point; `i` is past `\`. */
  protected characterEscape(): number {
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
  protected characterClass(): string {
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
