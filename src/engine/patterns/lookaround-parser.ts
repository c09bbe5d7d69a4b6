// Parsing a pattern the native `u`-flag parser accepted into the tree lookaround decomposition works on.
import { CharacterReader } from './character-reader.ts';
import { type CodePoints, normalize } from './code-point-sets.ts';
import type { Node, Seq } from './lookaround-tree.ts';
import { complement, lineTerminators, whitespace } from './re2-ranges.ts';
import { Refused } from './translated-pattern.ts';

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
export class Parser extends CharacterReader {
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
