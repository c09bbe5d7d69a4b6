import type { Refusal } from '../../protocol/refusal.ts';
import { truncate } from '../json/truncate.ts';
import { visitTicks } from '../work/estimate-work.ts';
import { compileLinearPattern, estimatedInstructions } from './linear-pattern.ts';

/**
 * The shortest string every admitted pattern can be tested on within `maxWork`. A pattern whose program costs more
 * per character could not check an ordinary field (a name, a path, a sentence) without the instance being answered
 * `maxWork`, so it is refused at compile time, where the server's author sees why (docs/policy.md#what-a-pattern-costs).
 */
export const minPatternChars = 1024;

/**
 * What compiling one schema's patterns may cost in all, in instruction units: each distinct pattern compiled by
 * re2js counts its instructions, `programUnits` for the program itself (its ~24 KiB of tables are worth ~150
 * instructions' 160 bytes, and its fixed compile time about as much), and its live-width analysis at
 * `analysisVisitsPerUnit` visits a unit. Measured at 0.3-2.7 µs a unit (bench: tiny to IPv6-like programs), so
 * 25,000 keeps one schema's patterns to ~75 ms and their programs to ~4 MB, half the pattern cache (8 MiB), which
 * they could otherwise thrash. The largest real total (the bench's medium fixture, 3 programs) is under 1,000.
 */
export const maxSchemaPatternUnits = 25_000;
export const programUnits = 150;
export const analysisVisitsPerUnit = 64;

/**
 * Refuses a `pattern` or `patternProperties` key (a `propertyNames` pattern is a `pattern` too) that is not a
 * JavaScript `u`-flag RegExp, that the linear-time matcher cannot run, or whose program costs so much per character
 * that a `minPatternChars`-character string would exceed `maxWork`, so no instance ever reaches one.
 * Whether the adapter's library can run them in linear time is the adapter's check (cfworker: `cfworkerChecks`).
 */
export function checkPatterns(patterns: readonly { pattern: string; pointer: string }[], maxWork: number): Refusal | undefined {
  if (patterns.length === 0) return undefined;
  const distinct = new Map<string, string>();
  for (const { pattern, pointer } of patterns) if (!distinct.has(pattern)) distinct.set(pattern, pointer);
  const total = programTotal(distinct);
  if (total !== undefined) return total;
  let units = 0;
  let programs = 0;
  let instructionsInAll = 0;
  for (const [pattern, pointer] of distinct) {
    const compiled = compileLinearPattern(pattern);
    const quoted = `${pointer}: ${JSON.stringify(truncate(pattern))}`;
    if (!compiled.ok) return { code: 'invalid_pattern', message: `${quoted} ${compiled.reason}` };
    const { charTicks, instructions, width } = compiled.cost;
    if (charTicks * minPatternChars > maxWork * visitTicks) {
      const perChar = (charTicks / visitTicks).toFixed(1);
      return {
        code: 'invalid_pattern',
        message:
          `${quoted} costs ${perChar} work units per character (${instructions} instructions, up to ${width} live at once), ` +
          `so a ${minPatternChars}-character string would exceed maxWork (${maxWork})`,
      };
    }
    if (instructions === 0) continue;
    // A pattern decomposed for its lookarounds (docs/decisions/019-lookaround.md) compiles several programs.
    const compiledPrograms = Math.max(1, compiled.cost.programs);
    programs += compiledPrograms;
    instructionsInAll += instructions;
    units += instructions + compiledPrograms * programUnits + Math.ceil(compiled.cost.analysis / analysisVisitsPerUnit);
    // Checked as it grows: the analysis is only known once compiled, so the count stops one pattern past the bound.
    if (units > maxSchemaPatternUnits) {
      return {
        code: 'invalid_pattern',
        message:
          `${pointer}: the schema's ${distinct.size} patterns compile to over ${maxSchemaPatternUnits} units in all ` +
          `(the first ${programs} programs: ${instructionsInAll} instructions, ${programUnits} units a program, and their analysis ${units - instructionsInAll - programs * programUnits}), ` +
          'more than one schema may compile',
      };
    }
  }
  return undefined;
}

/**
 * The schema's patterns over `maxSchemaPatternUnits` on the translation's estimate alone (each program's
 * instructions and `programUnits`), before any is compiled: a schema of thousands of patterns is refused in
 * milliseconds. The estimate is at most the compiled count, so this refuses nothing the count after compiling admits.
 */
function programTotal(distinct: ReadonlyMap<string, string>): Refusal | undefined {
  let programs = 0;
  let instructions = 0;
  let read = 0;
  for (const [pattern, pointer] of distinct) {
    read++;
    const estimate = estimatedInstructions(pattern);
    if (estimate === undefined || estimate === 0) continue;
    programs++;
    instructions += estimate;
    const units = instructions + programs * programUnits;
    // Stops as soon as the bound is passed: the rest would only add to the count.
    if (units > maxSchemaPatternUnits) {
      return {
        code: 'invalid_pattern',
        message:
          `${pointer}: the schema's ${distinct.size} patterns compile to over ${maxSchemaPatternUnits} units in all ` +
          `(the first ${read}: ${programs} programs of about ${instructions} instructions, ${programUnits} units a program), ` +
          'more than one schema may compile',
      };
    }
  }
  return undefined;
}
