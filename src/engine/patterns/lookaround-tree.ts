// The tree a pattern with lookaround is parsed into, what is known of a node's width, and its text again: shared by
// the parser, the decomposition and the folding of one-character lookaheads, so none of them imports another.
import type { CodePoints } from './code-point-sets.ts';

export type Node =
  /** One code point; `set` is known unless it names a Unicode property RE2 keeps by name. */
  | { readonly kind: 'atom'; readonly text: string; readonly set: CodePoints | undefined }
  | { readonly kind: 'assert'; readonly text: '^' | '$' | '\\b' | '\\B' }
  | { readonly kind: 'group'; readonly alt: readonly Node[][] }
  | { readonly kind: 'quant'; readonly node: Node; readonly min: number; readonly max: number | undefined }
  | { readonly kind: 'look'; readonly behind: boolean; readonly negated: boolean; readonly alt: readonly Node[][] };

export type Seq = readonly Node[];

export function totalWidth(seq: Seq): number | undefined {
  let sum = 0;
  for (const node of seq) {
    const w = width(node);
    if (w === undefined) return undefined;
    sum += w;
  }
  return sum;
}

/** Code points a node always consumes, or `undefined` when that varies. */
export function width(node: Node): number | undefined {
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

export function nullable(node: Node): boolean {
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

export function holdsLook(node: Node): boolean {
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

export function serializeSeq(seq: Seq): string {
  return seq.map(serialize).join('');
}

export function serialize(node: Node): string {
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
