// What translating a pattern yields, apart from how it is done: the scanner and the character reader both refuse
// constructs, and the translator's callers only read the result.

/**
 * An ECMA-262 `u`-flag pattern in RE2 syntax with the same `test()` verdict on every string, or the construct
 * that RE2 cannot run. `simple` marks patterns a backtracking engine also runs in linear time (see isSimple);
 * `instructions` estimates the program re2js would compile it to, read as the pattern is scanned.
 */
export type TranslatedPattern =
  | { readonly ok: true; readonly source: string; readonly simple: boolean; readonly instructions: number }
  | { readonly ok: false; readonly construct: string };

/** Why a pattern cannot be translated; thrown inside the scanner, returned as data at its edge. */
export class Refused {
  constructor(readonly construct: string) {}
}

export const lookaheadConstruct = 'a lookahead (?= or (?!';
export const lookbehindConstruct = 'a lookbehind (?<= or (?<!';

/** Whether the translator stopped at a lookaround, which src/engine/patterns/lookaround.ts may decompose. */
export function isLookaround(construct: string): boolean {
  return construct === lookaheadConstruct || construct === lookbehindConstruct;
}
