import type { RE2JS } from 're2js';

/**
 * What one compiled pattern costs per input character and in retained memory, read from its re2js program
 * (docs/policy.md#what-a-pattern-costs). Work is in ticks, the estimate's sixteenths of a unit (src/engine/work/estimate-work.ts).
 */
export interface PatternCost {
  /** Ticks per character of a string the pattern is tested on; at least 1. */
  readonly charTicks: number;
  /** Bytes the compiled pattern keeps, without its lazy DFA (which the cache counts as it grows). */
  readonly bytes: number;
  /** Instructions in the program (0 on the native path). */
  readonly instructions: number;
  /** The most instructions that can be live at one position of any input. */
  readonly width: number;
  /** Instruction visits the live-width analysis took to measure it (0 on the native path). */
  readonly analysis: number;
  /** re2js programs it runs on each string: 0 on the native path, 1, or more when lookaround is decomposed. */
  readonly programs: number;
}

/**
 * One live instruction and one character cost re2js at most ~63 ns (Node 20; its NFA, or its DFA rebuilding states
 * past its memory budget, steps every live instruction per character): about one tick at ~1 µs per unit.
 * bench/pattern-cost.ts measures it.
 */
const instructionsPerTick = 1;
/** A DFA state built for a character allocates a transition table of one slot per character class (~1 ns each). */
const classesPerTick = 32;
/** The native fast path (ADR 009) steps at most pattern length × input length, ≤ 0.6 ns a step measured. */
const nativeCharsPerTick = 64;
/** A compiled program keeps ~24 KiB of tables and ~160 bytes an instruction (heap measured with `--expose-gc`). */
const programBaseBytes = 24 * 1024;
const instructionBytes = 160;
/** How far the live sets are followed before giving up on a tighter bound than the program size. */
const maxAnalysisSteps = 256;
const maxAnalysisWork = 1 << 19;

// re2js's instruction opcodes (src/Inst.js); anything else fails closed.
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const RUNE_FIRST = 8;
const RUNE_LAST = 11;
/** `^` without the `m` flag: holds only at position 0. */
const EMPTY_BEGIN_TEXT = 4;

/** Up to this many character classes, the live set is bounded per class of character rather than for all at once. */
const maxClassesSplit = 64;
const RUNE_ANY = 10;

interface Instruction {
  readonly op: number;
  readonly out: number;
  readonly arg: number;
  matchRune(rune: number): boolean;
}

/** The native fast path's cost: no program, a step per pattern character per input character at worst. */
export function nativePatternCost(pattern: string): PatternCost {
  return {
    charTicks: Math.max(1, Math.ceil(pattern.length / nativeCharsPerTick)),
    bytes: 1024 + 64 * pattern.length,
    instructions: 0,
    width: 0,
    analysis: 0,
    programs: 0,
  };
}

/**
 * The cost of a compiled re2js pattern, or `undefined` when its internals are not the shape this reads (an upgrade
 * moved them): the caller refuses the pattern then, never guessing a cost.
 */
export function re2PatternCost(re2: RE2JS): PatternCost | undefined {
  const read = readProgram(re2);
  if (read === undefined) return undefined;
  const { program, start, classes, bounds } = read;
  const { width, analysis } = liveWidth(program, start, classes <= maxClassesSplit ? [0, ...bounds] : undefined);
  const charTicks = Math.ceil(width / instructionsPerTick) + Math.ceil(classes / classesPerTick);
  return {
    charTicks: Math.max(1, charTicks),
    bytes: programBaseBytes + instructionBytes * program.length + 8 * classes,
    instructions: program.length,
    width,
    analysis,
    programs: 1,
  };
}

interface Read {
  readonly program: Instruction[];
  readonly start: number;
  readonly classes: number;
  /** The first character of every class but the one starting at 0 (re2js's DFA splits characters by them). */
  readonly bounds: readonly number[];
}

function readProgram(re2: RE2JS): Read | undefined {
  type Dfa = { numClasses?: unknown; classBounds?: unknown };
  const input = (re2 as unknown as { re2Input?: { prog?: { inst?: unknown; start?: unknown }; dfa?: Dfa } }).re2Input;
  const prog = input?.prog;
  const classes = input?.dfa?.numClasses;
  const bounds = input?.dfa?.classBounds;
  if (prog === undefined || !Array.isArray(prog.inst) || typeof classes !== 'number' || !Number.isSafeInteger(classes)) return undefined;
  if (!(bounds instanceof Int32Array) || bounds.length !== classes - 1) return undefined;
  const program = prog.inst as Instruction[];
  const size = program.length;
  const start = prog.start;
  if (size === 0 || typeof start !== 'number' || !inRange(start, size)) return undefined;
  for (const inst of program) {
    if (typeof inst !== 'object' || inst === null) return undefined;
    const { op, out, arg } = inst;
    if (!Number.isInteger(op) || op < ALT || op > RUNE_LAST) return undefined; // lookbehind ops, or unknown ones
    if (op !== MATCH && op !== FAIL && !inRange(out, size)) return undefined;
    if ((op === ALT || op === ALT_MATCH) && !inRange(arg, size)) return undefined;
    if (op === EMPTY_WIDTH && !Number.isInteger(arg)) return undefined;
    if (op >= RUNE_FIRST && typeof inst.matchRune !== 'function') return undefined;
  }
  return { program, start, classes, bounds: [...bounds] };
}

function inRange(pc: unknown, size: number): boolean {
  return typeof pc === 'number' && Number.isInteger(pc) && pc >= 0 && pc < size;
}

/**
 * An upper bound on the instructions live at once. `S(0)` is the closure of the start; `S(i + 1)` the closure of
 * everything a character instruction of `S(i)` leads to, plus the start again (`test` searches from every
 * position). Every zero-width assertion is taken as passing except `^` after position 0, and every character
 * instruction as matching, so the live set of any input at position i lies within `S(i)`; with a few character
 * classes, the set after reading a character c lies within the closure of what the instructions of `S(i)` that
 * match c lead to, which is often far smaller (a hex digit and a `:` take different branches of an IPv6 pattern).
 * The sequence depends only on i, so once a set repeats it cycles and its maximum is final; if it does not within
 * the analysis budget, the bound is the whole program. Anchored patterns (`^\d{4}-\d{2}…`) stay narrow;
 * `(.{1000})+z` does not.
 */
function liveWidth(
  program: readonly Instruction[],
  start: number,
  representatives: readonly number[] | undefined,
): { width: number; analysis: number } {
  const size = program.length;
  const steps = Math.min(maxAnalysisSteps, Math.floor(maxAnalysisWork / (size * (1 + (representatives?.length ?? 0)))));
  const mark = new Uint32Array(size);
  let stamp = 0;
  let analysis = 0;
  const closure = (seeds: readonly number[], atStart: boolean): number[] => {
    stamp++;
    const found: number[] = [];
    const stack = [...seeds];
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      analysis++;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      found.push(pc);
      const { op, out, arg } = program[pc] as Instruction;
      if (op === ALT || op === ALT_MATCH) stack.push(out, arg);
      else if (op === NOP || op === CAPTURE) stack.push(out);
      else if (op === EMPTY_WIDTH && (atStart || (arg & EMPTY_BEGIN_TEXT) === 0)) stack.push(out);
    }
    return found.sort((a, b) => a - b);
  };
  let live = closure([start], true);
  let width = live.length;
  const seen = new Set<string>([live.join()]);
  for (let i = 0; i < steps; i++) {
    const next: number[] = [start];
    analysis += live.length;
    for (const pc of live) {
      const inst = program[pc] as Instruction;
      if (inst.op >= RUNE_FIRST) next.push(inst.out);
    }
    if (representatives !== undefined) {
      for (const rune of representatives) {
        const seeds: number[] = [start];
        analysis += live.length;
        for (const pc of live) {
          const inst = program[pc] as Instruction;
          if (inst.op >= RUNE_ANY || (inst.op >= RUNE_FIRST && inst.matchRune(rune))) seeds.push(inst.out);
        }
        width = Math.max(width, closure(seeds, false).length);
      }
    }
    live = closure(next, false);
    if (representatives === undefined) width = Math.max(width, live.length);
    const key = live.join();
    if (seen.has(key)) return { width, analysis };
    seen.add(key);
  }
  return { width: size, analysis };
}

/**
 * The cost of a pattern answered by several (src/engine/patterns/lookaround.ts): each may run on every string, so
 * everything adds up.
 */
export function summedPatternCost(parts: readonly PatternCost[]): PatternCost {
  const sum = (read: (cost: PatternCost) => number): number => parts.reduce((total, cost) => total + read(cost), 0);
  return {
    charTicks: Math.max(
      1,
      sum((c) => c.charTicks),
    ),
    bytes: 256 + sum((c) => c.bytes),
    instructions: sum((c) => c.instructions),
    width: sum((c) => c.width),
    analysis: sum((c) => c.analysis),
    programs: sum((c) => c.programs),
  };
}
