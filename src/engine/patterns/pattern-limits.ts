// The bounds a pattern must stay within to run on RE2: the translator checks them while scanning, and
// linear-pattern.ts checks them again on the compiled program.

/** RE2's largest repetition count. */
export const maxRepeat = 1000;

/**
 * The largest program a pattern may compile to. A counted repetition copies its operand, so `(?:[a-z]{2,5}-){200}`
 * (counts within RE2's limit) compiles to ~2,800 instructions; memory (~160 bytes each), compile time and the cost
 * per character grow with the program, not with the count. Checked on an estimate before re2js compiles anything,
 * and again on the compiled program.
 */
export const maxProgramInstructions = 5000;
