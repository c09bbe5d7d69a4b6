// The full walk of the plain-false twin, written as the walk of the engine's copy would write it (issue 21). Each
// `false` the twin meets costs cfworker one check where the engine's `{"not": true}` stand-in costs a subschema
// visit, but cfworker files a plain `false`'s failure under the instance location, not the schema's. Where the
// schema location can be told from the unit before it, the unit is rewritten; elsewhere the caller walks again.
import type { OutputUnitLike } from './leaf-context.ts';
import { slash, startsWith } from './leaf-context.ts';

/** A cfworker output unit, with the message the engine never reads but keeps alike. */
export interface Unit extends OutputUnitLike {
  readonly error: string;
}

/**
 * Wrappers whose subschema cfworker validates at the wrapper's own keyword location: a `false` there stands at it.
 * `items` only when no `items` in the schema is an array (then its subschemas sit at `items/<index>`).
 */
const atWrapper = new Set([
  '$ref',
  '$recursiveRef',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
]);

/** Wrappers whose subschemas sit at `<wrapper>/<name or index>`, the same segment cfworker adds to the instance location. */
const atSegment = new Set(['properties', 'prefixItems']);

/**
 * The units with each `false` unit as the stand-in's `not` unit, or undefined when one cannot be placed.
 *
 * cfworker pushes a wrapper unit and then its subschema's units in one call, and a wrapper of `atWrapper` or
 * `atSegment` always has at least one: so when such a wrapper comes right before a `false` unit, that `false` is its
 * subschema. A `false` unit first of all is the root. Anything else (`allOf`, `anyOf`, `patternProperties`,
 * `dependentSchemas`, array `items`) is not placed. Neither is any `false` of an output with a `minContains` unit:
 * only then does cfworker keep the units of items `contains` rejected, with no wrapper before them.
 */
export function standInUnits(units: readonly Unit[], itemsArrays: boolean): readonly Unit[] | undefined {
  let out: Unit[] | undefined;
  let counted = false;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i] as Unit;
    if (unit.keyword === 'minContains') counted = true;
    if (unit.keyword !== 'false') continue;
    const at = i === 0 ? '#' : placed(units[i - 1] as Unit, unit, itemsArrays);
    if (at === undefined) return undefined;
    out ??= units.slice();
    out[i] = { instanceLocation: unit.instanceLocation, keyword: 'not', keywordLocation: `${at}/not`, error: standInError };
  }
  if (out !== undefined && counted) return undefined;
  return out ?? units;
}

/** What cfworker writes for a failed `not`: the stand-in's unit, word for word. */
const standInError = 'Instance matched "not" schema.';

/** The schema location of the `false` whose unit follows `wrapper`, or undefined when it cannot be told. */
function placed(wrapper: Unit, unit: Unit, itemsArrays: boolean): string | undefined {
  const { keyword } = wrapper;
  if (atWrapper.has(keyword) || (keyword === 'items' && !itemsArrays)) return wrapper.keywordLocation;
  if (!atSegment.has(keyword)) return undefined;
  const parent = wrapper.instanceLocation;
  const own = unit.instanceLocation;
  if (own.length <= parent.length + 1 || own.charCodeAt(parent.length) !== slash || !startsWith(own, parent)) return undefined;
  return wrapper.keywordLocation + own.slice(parent.length);
}
