// The discriminator lookup behind a closest-branch choice: which branches of a failed `anyOf`/`oneOf` the value's own
// `const`/`enum`-keyed property picks. Read-only over the schema; nothing is validated again.
import type { SchemaNode } from '../../schema/schema-validator-adapter.ts';
import { type Context, keywordOf, type OutputUnitLike, type Sink, slash, startsWith, whereOf } from './leaf-context.ts';
import { locate, segmentsOf, valueAt } from './schema-locations.ts';

/** At most this many property names are tried as discriminators per `anyOf`/`oneOf` (real unions have one). */
const maxDiscriminators = 8;

/**
 * The branches a discriminator picks, as positions in `branches`, or undefined when none does. A discriminator is a
 * property of the value whose `const` or `enum` in some branch admits the value there while another branch's
 * `const`/`enum` rejects it (`{"kind":"dog"}` against a cat/dog union keyed by `kind`). The names tried are the
 * OpenAPI `discriminator.propertyName` beside the keyword (a hint only: the `const`/`enum` decides), then those of
 * the `const`/`enum` failures the branches already have at the value's direct properties, in output order. A branch
 * picked by more discriminators wins over one picked by fewer.
 *
 * The work is bounded by branches × names: for each, the branch's `properties` is read in the branch itself, the
 * schema its `$ref` points to, and the members of its `allOf` (see `propertyHolders`). Nothing is validated again.
 */
export function discriminatorChoice(
  context: Context,
  unit: OutputUnitLike,
  branches: readonly { index: number; sink: Sink }[],
): ReadonlySet<number> | undefined {
  const here = unit.instanceLocation;
  const value = valueAt(context.input.instance, segmentsOf(here));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const holder = locate(context, unit.keywordLocation).schema;
  const options = holder[unit.keyword];
  if (!Array.isArray(options)) return undefined;
  const names = discriminatorNames(context, holder, here, branches);
  const scores: number[] = new Array(branches.length).fill(0);
  const holders = new Map<number, readonly SchemaNode[]>();
  for (const name of names) {
    if (!Object.hasOwn(value, name)) continue;
    const own = (value as Record<string, unknown>)[name];
    if (!isScalar(own)) continue;
    const admitting: number[] = [];
    let rejected = false;
    for (const [k, branch] of branches.entries()) {
      let found = holders.get(k);
      if (found === undefined) {
        found = propertyHolders(context, options[branch.index]);
        holders.set(k, found);
      }
      const verdict = constVerdict(context, found, name, own);
      if (verdict === 'admits') admitting.push(k);
      else if (verdict === 'rejects') rejected = true;
    }
    if (!rejected) continue;
    for (const k of admitting) scores[k] = (scores[k] as number) + 1;
  }
  const top = Math.max(0, ...scores);
  if (top === 0) return undefined;
  const chosen = new Set<number>();
  for (const [k, score] of scores.entries()) if (score === top) chosen.add(k);
  return chosen;
}

/** The property names to try as discriminators, in order, without repeats, at most `maxDiscriminators`. */
function discriminatorNames(
  context: Context,
  holder: SchemaNode,
  here: string,
  branches: readonly { index: number; sink: Sink }[],
): string[] {
  const names = new Set<string>();
  const hint = holder.discriminator;
  if (typeof hint === 'object' && hint !== null && typeof (hint as Record<string, unknown>).propertyName === 'string') {
    names.add((hint as Record<string, unknown>).propertyName as string);
  }
  const depth = segmentsOf(here).length + 1;
  for (const { sink } of branches) {
    for (const entry of sink.entries) {
      if (names.size >= maxDiscriminators) return [...names];
      const keyword = keywordOf(context, entry);
      if (keyword !== 'const' && keyword !== 'enum') continue;
      const where = whereOf(context, entry);
      // A direct property of the value: one segment below `here`.
      if (where.length <= here.length + 1 || !startsWith(where, here) || where.charCodeAt(here.length) !== slash) continue;
      const segments = segmentsOf(where);
      if (segments.length === depth) names.add(segments[depth - 1] as string);
    }
  }
  return [...names];
}

/** A JSON scalar, which `const`/`enum` compare with `===` (cfworker's deep comparison agrees on these). */
const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** `$ref` hops followed from one schema before giving up (a chain of aliases, or a cycle). */
const maxRefHops = 4;
/** Schemas read per branch for its `properties`: the branch, what its `$ref` names, its `allOf` members. */
const maxHolders = 16;

/** A schema and the one its `$ref` points to, and so on, up to `maxRefHops` (2019+ reads `$ref`'s siblings too). */
function refChain(context: Context, node: unknown): SchemaNode[] {
  const chain: SchemaNode[] = [];
  let current = node;
  for (let hop = 0; hop <= maxRefHops && typeof current === 'object' && current !== null; hop++) {
    const schema = current as SchemaNode;
    if (chain.includes(schema)) break;
    chain.push(schema);
    if (typeof schema.$ref !== 'string') break;
    current = context.input.lookup[String(schema.__absolute_ref__ ?? schema.$ref)];
  }
  return chain;
}

/**
 * The schemas whose `properties` a branch's value must satisfy, as far as they can be seen cheaply: the branch and
 * its `$ref` chain, and each `allOf` member of those and the member's own `$ref` chain (one level of `allOf`). Not
 * read: `if`/`then`, `dependentSchemas`, nested `anyOf`/`oneOf`, `allOf` inside `allOf`, `$recursiveRef`/`$dynamicRef`.
 */
function propertyHolders(context: Context, branch: unknown): readonly SchemaNode[] {
  const found: SchemaNode[] = [];
  for (const schema of refChain(context, branch)) {
    if (found.length >= maxHolders) break;
    found.push(schema);
    if (!Array.isArray(schema.allOf)) continue;
    for (const member of schema.allOf) {
      for (const part of refChain(context, member)) if (found.length < maxHolders && !found.includes(part)) found.push(part);
    }
  }
  return found;
}

/**
 * What a branch's `const`/`enum` for one property says of the value there: it admits it, rejects it, or the branch
 * has none (`silent`). A rejection anywhere wins: every one of the holders applies.
 */
function constVerdict(
  context: Context,
  holders: readonly SchemaNode[],
  name: string,
  value: string | number | boolean | null,
): 'admits' | 'rejects' | 'silent' {
  let verdict: 'admits' | 'silent' = 'silent';
  for (const holder of holders) {
    const properties = holder.properties;
    if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, name)) continue;
    for (const schema of refChain(context, (properties as Record<string, unknown>)[name])) {
      if (Object.hasOwn(schema, 'const')) {
        if (schema.const !== value) return 'rejects';
        verdict = 'admits';
      }
      if (Array.isArray(schema.enum)) {
        if (!schema.enum.includes(value)) return 'rejects';
        verdict = 'admits';
      }
    }
  }
  return verdict;
}
