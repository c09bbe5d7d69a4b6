// Caps on what decomposing one pattern's lookarounds may cost: each piece is a program run on every string, and the
// rewriting copies parts of the pattern, so both the output and the work are bounded.
import { Refused } from './translated-pattern.ts';

/** Bounds on what one pattern may decompose into: every piece is a program that runs on each string. */
export const maxLookaroundSequences = 32;
export const maxLookaroundPieces = 16;
/** What the pieces may add up to, in characters: 16 times the pattern, at least 4 KiB and at most 256 KiB. */
const maxPieceCharacters = 256 * 1024;
/** Nodes the rewriting may copy in all (~10 ms of work), so a long pattern cannot make it quadratic. */
const maxLookaroundWork = 1 << 21;
/** Steps spreading groups and folding one-character lookaheads may take (each copies part of the pattern). */
const maxLookaroundSteps = 1024;

/** Counts a rewriting step (bounded, so is the recursion) that copies `copied` nodes (bounded in all). */
export type Counted = (copied: number, step?: boolean) => void;

/** A fresh count for one pattern: refuses it once the steps or the copies go over their caps. */
export function workCounter(): Counted {
  let steps = 0;
  let work = 0;
  return (copied, step = true) => {
    if (step) steps++;
    work += copied;
    if (steps > maxLookaroundSteps || work > maxLookaroundWork) {
      throw new Refused(`lookarounds that take over ${maxLookaroundSteps} steps or ${maxLookaroundWork} copies to decompose`);
    }
  };
}

/** Refuses pieces (distinct pattern sources) that add up to over the bound for a pattern of this length. */
export function checkPieceCharacters(pieces: ReadonlySet<string>, pattern: string): void {
  const characters = [...pieces].reduce((sum, piece) => sum + piece.length, 0);
  const bound = Math.min(maxPieceCharacters, Math.max(4096, 16 * pattern.length));
  if (characters > bound) throw new Refused(`lookarounds that decompose into ${characters} characters of patterns (over ${bound})`);
}
