// Folding a one-character lookahead (`T(?=\d)`, `(?!$)`) into the first character that follows it, wherever it
// sits: the lookahead narrows that character's class, so no check on the whole string is needed.
import { type CodePoints, classText, intersect, normalize, sameSet, subtract } from './code-point-sets.ts';
import type { Counted } from './lookaround-bounds.ts';
import { type Node, nullable, type Seq } from './lookaround-tree.ts';
import { maxCodePoint } from './re2-ranges.ts';
import { Refused } from './translated-pattern.ts';

export type OneCharacter = { readonly set: CodePoints | undefined; readonly text: string; readonly negated: boolean };

/** A lookahead of one character (`(?=\d)`, `(?!$)` is `(?=[\s\S])`), `'end'` for `(?=$)`, else `undefined`. */
export function oneCharacter(look: Extract<Node, { kind: 'look' }>): OneCharacter | 'end' | undefined {
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
export function push(one: OneCharacter, negated: boolean, rest: Seq, counted: Counted): Seq[] {
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
