import type { Dialect } from '../../../protocol/dialect.ts';
import type { Refusal } from '../../../protocol/refusal.ts';
import { subschemaKeywords } from '../../schema/schema-keywords.ts';
import type { SchemaIndex, SchemaObject } from '../../schema/schema-types.ts';

type Targets = ReadonlyMap<SchemaObject, readonly (SchemaObject | boolean)[]>;

/** Keywords that record which properties or items they evaluated. */
const annotating = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
];

/**
 * Refuses `unevaluatedProperties`/`unevaluatedItems` where the validator library would decide them with the wrong
 * annotations. @cfworker/json-schema passes one shared record of evaluated names down into `$ref` targets,
 * `allOf`/`anyOf`/`oneOf` branches, `then`/`else` and `dependentSchemas`, so a subschema entered that way also sees
 * what its parent evaluated before it (e.g. `then` sees what `if` matched) and accepts what it should reject.
 * A subschema entered with a fresh record (the root, the value of `properties`, `items`, `not`, `if`…), or one
 * entered through a shared record that nothing can have written to yet, is decided right and is kept.
 */
export function checkUnevaluated(
  root: SchemaObject | boolean,
  dialect: Dialect,
  index: SchemaIndex,
  targets: Targets,
): Refusal | undefined {
  if (dialect !== '2019-09' && dialect !== '2020-12') return undefined;
  const holders = [...index.pointerOf.keys()].filter((node) => 'unevaluatedProperties' in node || 'unevaluatedItems' in node);
  if (holders.length === 0 || typeof root !== 'object') return undefined;
  const keywords = subschemaKeywords(dialect);
  const annotates = mayAnnotate(index, targets);
  const recursive = dialect === '2019-09';

  /** Children entered with the same record as `node`, each with whether something may have written to it first. */
  const shared = (node: SchemaObject): { child: SchemaObject; written: boolean }[] => {
    const out: { child: SchemaObject; written: boolean }[] = [];
    const list = targets.get(node) ?? [];
    const hasRef = typeof node.$ref === 'string';
    const objects = (items: readonly unknown[]): SchemaObject[] =>
      items.filter((item): item is SchemaObject => typeof item === 'object' && item !== null && !Array.isArray(item));
    let written = false;
    // The validator's order: $recursiveRef (re-entering this node first), $ref, anyOf/allOf/oneOf, if + then/else,
    // dependentSchemas, then this node's own keywords.
    if (recursive && node.$recursiveRef === '#') {
      const recursiveTargets = objects(list.slice(hasRef ? 1 : 0));
      for (const child of recursiveTargets) out.push({ child, written });
      // The re-entered run evaluates this whole node before the outer run continues with the same record.
      written = annotates.has(node);
    }
    if (hasRef) {
      const target = list[0];
      if (typeof target === 'object') {
        out.push({ child: target, written });
        if (annotates.has(target)) written = true;
      }
    }
    const branches: SchemaObject[] = [];
    for (const keyword of ['anyOf', 'allOf', 'oneOf']) {
      const value = node[keyword];
      if (Array.isArray(value)) branches.push(...objects(value));
    }
    for (const child of branches) out.push({ child, written });
    if (branches.some((child) => annotates.has(child))) written = true;
    const condition = node.if;
    const conditionAnnotates = typeof condition === 'object' && condition !== null && annotates.has(condition as SchemaObject);
    for (const keyword of ['then', 'else']) {
      const value = node[keyword];
      if (typeof value === 'object' && value !== null)
        out.push({ child: value as SchemaObject, written: written || (keyword === 'then' && conditionAnnotates) });
    }
    for (const keyword of ['if', 'then', 'else']) {
      const value = node[keyword];
      if (typeof value === 'object' && value !== null && annotates.has(value as SchemaObject)) written = true;
    }
    const dependent = node.dependentSchemas;
    if (typeof dependent === 'object' && dependent !== null) {
      for (const child of objects(Object.values(dependent))) {
        out.push({ child, written });
        if (annotates.has(child)) written = true;
      }
    }
    return out;
  };

  /** Children entered with a fresh record: their own value, or a fresh scope (`not`, `if`, draft `dependencies`). */
  const fresh = (node: SchemaObject): SchemaObject[] => {
    const out: SchemaObject[] = [];
    for (const keyword of Object.keys(node)) {
      const info = keywords[keyword];
      if (info === undefined || info.container) continue;
      if (info.inPlace && keyword !== 'not' && keyword !== 'if' && keyword !== 'dependencies') continue;
      const value = node[keyword];
      const subs =
        info.shape === 'map' || info.shape === 'dependencies' ? Object.values(value as object) : Array.isArray(value) ? value : [value];
      for (const sub of subs) if (typeof sub === 'object' && sub !== null && !Array.isArray(sub)) out.push(sub as SchemaObject);
    }
    return out;
  };

  /** 2019-09: does `contains` (in this node or anything sharing its record) write to the record `node` reads? */
  const sharesWithContains = (node: SchemaObject): boolean => {
    const seen = new Set<SchemaObject>();
    const pending = [node];
    while (pending.length > 0) {
      const next = pending.pop() as SchemaObject;
      if (seen.has(next)) continue;
      seen.add(next);
      if ('contains' in next) return true;
      for (const { child } of shared(next)) pending.push(child);
      // `if` is evaluated with a record of its own, merged in when it holds.
      if (typeof next.if === 'object' && next.if !== null) pending.push(next.if as SchemaObject);
    }
    return false;
  };

  // Every subschema the validator can reach, and whether any way in may carry names evaluated outside it.
  const reached = new Map<SchemaObject, boolean>();
  const pending: { node: SchemaObject; dirty: boolean }[] = [{ node: root, dirty: false }];
  while (pending.length > 0) {
    const { node, dirty } = pending.pop() as { node: SchemaObject; dirty: boolean };
    const known = reached.get(node);
    if (known === true || (known === false && !dirty)) continue;
    reached.set(node, dirty);
    for (const { child, written } of shared(node)) pending.push({ node: child, dirty: dirty || written });
    for (const child of fresh(node)) pending.push({ node: child, dirty: false });
  }

  for (const node of holders) {
    if (recursive && 'unevaluatedItems' in node && reached.has(node) && sharesWithContains(node)) {
      return {
        code: 'unsupported_keyword',
        message: `${index.pointerOf.get(node) ?? '#'}/unevaluatedItems: the validator would count items matched by "contains", which 2019-09 leaves unevaluated, so it cannot be enforced faithfully; schemaval refuses it`,
      };
    }
    if (reached.get(node) !== true) continue;
    const keyword = 'unevaluatedProperties' in node ? 'unevaluatedProperties' : 'unevaluatedItems';
    const what = keyword === 'unevaluatedProperties' ? 'properties' : 'items';
    return {
      code: 'unsupported_keyword',
      message: `${index.pointerOf.get(node) ?? '#'}/${keyword}: the validator would also count ${what} evaluated outside this subschema, so it cannot be enforced faithfully; schemaval refuses it`,
    };
  }
  return undefined;
}

/** Subschemas whose evaluation may record evaluated names in the record they were entered with. */
function mayAnnotate(index: SchemaIndex, targets: Targets): Set<SchemaObject> {
  // Reverse edges along the ways a record is shared, then a worklist from the subschemas that annotate themselves.
  const parents = new Map<SchemaObject, SchemaObject[]>();
  const link = (parent: SchemaObject, child: unknown): void => {
    if (typeof child !== 'object' || child === null || Array.isArray(child)) return;
    const list = parents.get(child as SchemaObject) ?? [];
    list.push(parent);
    parents.set(child as SchemaObject, list);
  };
  const out = new Set<SchemaObject>();
  const pending: SchemaObject[] = [];
  for (const node of index.pointerOf.keys()) {
    for (const target of targets.get(node) ?? []) link(node, target);
    for (const keyword of ['anyOf', 'allOf', 'oneOf']) {
      const value = node[keyword];
      if (Array.isArray(value)) for (const branch of value) link(node, branch);
    }
    for (const keyword of ['if', 'then', 'else']) link(node, node[keyword]);
    const dependent = node.dependentSchemas;
    if (typeof dependent === 'object' && dependent !== null) for (const sub of Object.values(dependent)) link(node, sub);
    if (annotating.some((keyword) => keyword in node)) pending.push(node);
  }
  while (pending.length > 0) {
    const node = pending.pop() as SchemaObject;
    if (out.has(node)) continue;
    out.add(node);
    for (const parent of parents.get(node) ?? []) if (!out.has(parent)) pending.push(parent);
  }
  return out;
}
