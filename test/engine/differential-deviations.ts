// Reviewed disagreements between the engine and @hyperjump/json-schema (see docs/conformance.md, "Differential
// testing"). Each entry is narrow: its predicate matches one documented behaviour, never a keyword as a whole.
import { compileSchema } from '../../src/engine/index.ts';
import type { Json } from '../helpers/json-values.ts';
import type { GeneratedDialect, Schema } from '../helpers/schema-arbitrary.ts';

/** One disagreement: a schema, an instance and the two verdicts. */
export interface DifferentialPair {
  readonly dialect: GeneratedDialect;
  readonly schema: Schema;
  readonly instance: Json;
  /** The engine's verdict, or the refusal code when it refused the schema. */
  readonly engine: boolean | string;
  readonly hyperjump: boolean;
}

/** A refusal the generator may meet that is policy, not a defect: counted, never compared. */
export interface ReviewedRefusal {
  readonly code: string;
  readonly reason: string;
  readonly applies: (schema: Schema) => boolean;
}

export interface Deviation {
  readonly id: string;
  /** Why the two disagree and which side the spec (and the JSON-Schema-Test-Suite) supports. */
  readonly reason: string;
  /** The smallest known pairs; a unit test checks that each still disagrees, so the entry cannot go stale. */
  readonly examples: readonly DifferentialPair[];
  readonly matches: (pair: DifferentialPair) => boolean;
}

/** Every number anywhere in a JSON value. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(numbersIn);
}

/** Every value of `keyword` in a schema document, at any depth. */
export function keywordValues(schema: unknown, keyword: string): unknown[] {
  if (schema === null || typeof schema !== 'object') return [];
  const own = !Array.isArray(schema) && keyword in schema ? [(schema as Record<string, unknown>)[keyword]] : [];
  return [...own, ...Object.values(schema).flatMap((member) => keywordValues(member, keyword))];
}

/** @hyperjump/json-schema 1.18's multipleOf test (lib/keywords/multipleOf.js), restated to recognise where it goes wrong. */
const hyperjumpMultipleOf = (value: number, divisor: number): boolean => {
  const remainder = value % divisor;
  return Math.abs(remainder) < 1.1920929e-7 || Math.abs(divisor - remainder) < 1.1920929e-7;
};

/** A number's shortest decimal form as digits / 10^scale. */
function decimal(value: number): { digits: bigint; scale: number } {
  const [mantissa = '0', exponent = '0'] = String(value).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** multipleOf read as JSON text is read: decimal division without rounding. */
const exactMultipleOf = (value: number, divisor: number): boolean => {
  const n = decimal(value);
  const d = decimal(divisor);
  const scale = Math.max(n.scale, d.scale);
  return (n.digits * 10n ** BigInt(scale - n.scale)) % (d.digits * 10n ** BigInt(scale - d.scale)) === 0n;
};

/**
 * Refusals that are policy. The generator writes no `$dynamicRef`, remote or dangling `$ref`, and only patterns the
 * linear-time matcher runs, so every other refusal it meets is a defect and fails the differential test.
 */
export const reviewedRefusals: readonly ReviewedRefusal[] = [
  {
    code: 'unsupported_keyword',
    reason:
      'unevaluatedProperties/unevaluatedItems placed where @cfworker/json-schema would read annotations from the ' +
      'wrong scope: the engine refuses rather than be silently permissive (docs/architecture.md#schema-policy-and-refusal-codes, docs/dialects.md).',
    applies: (schema) => keywordValues(schema, 'unevaluatedProperties').length + keywordValues(schema, 'unevaluatedItems').length > 0,
  },
];

/** The engine's answer to "is `value` a multiple of `divisor`", asked with a one-keyword schema. */
function engineMultipleOf(value: number, divisor: number): boolean | undefined {
  const compiled = compileSchema({ multipleOf: divisor });
  return compiled.status === 'accepted' ? compiled.schema.validate(value).status === 'valid' : undefined;
}

/** Permanent, reviewed deviations. */
export const deviations: readonly Deviation[] = [
  {
    id: 'hyperjump-multipleof-float',
    reason:
      'hyperjump decides multipleOf with the floating-point remainder and a fixed tolerance (1.19e-7), compared with ' +
      '0 and +multipleOf only: a negative dividend (-0.7 % 0.1 is -0.0999…) or a large one (2^52 % 0.1 is 0.0996…) ' +
      'comes out "not a multiple". The spec (validation §6.2.1: valid if the division "results in an integer") and ' +
      'the engine divide the decimal values exactly. Matches only a pair holding a number and a multipleOf for which ' +
      "hyperjump's rule and exact decimal division disagree.",
    examples: [
      { dialect: '2020-12', schema: { multipleOf: 0.1 }, instance: -0.7, engine: true, hyperjump: false },
      { dialect: '2020-12', schema: { multipleOf: 0.01 }, instance: 2 ** 52, engine: true, hyperjump: false },
      {
        dialect: 'draft-07',
        schema: { $schema: 'http://json-schema.org/draft-07/schema#', multipleOf: 0.1 },
        instance: -0.7,
        engine: true,
        hyperjump: false,
      },
    ],
    matches: (pair) => {
      const divisors = keywordValues(pair.schema, 'multipleOf').filter((value): value is number => typeof value === 'number' && value > 0);
      // Only where hyperjump's rule is wrong and the engine, asked the same question alone, is right.
      return numbersIn(pair.instance).some((value) =>
        divisors.some((divisor) => {
          const exact = exactMultipleOf(value, divisor);
          return hyperjumpMultipleOf(value, divisor) !== exact && engineMultipleOf(value, divisor) === exact;
        }),
      );
    },
  },
];

/**
 * TEMPORARY: engine bugs other work is fixing right now (issue #9). Empty this list as the fixes land; a unit
 * test fails for an entry whose example no longer disagrees.
 */
export const pendingFixes: readonly Deviation[] = [];
