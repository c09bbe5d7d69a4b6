import type { Refused } from '../../protocol/outcome.ts';
import type { Refusal } from '../../protocol/refusal.ts';
import { truncate } from '../json/truncate.ts';
import type { SchemaIndex, SchemaObject } from '../schema/schema-types.ts';
import { parseUri, unresolvable, withoutHash } from '../schema/schema-uri.ts';

/**
 * Resolves every reference in the document against the index, on every branch, before any instance is seen.
 * A reference outside the document is `remote_ref` (never fetched); a missing target is `unresolved_ref`.
 * Returns each reference's target.
 */
export function resolveRefs(index: SchemaIndex): { status: 'accepted'; targets: Map<SchemaObject, (SchemaObject | boolean)[]> } | Refused {
  const targets = new Map<SchemaObject, (SchemaObject | boolean)[]>();
  for (const site of index.refs) {
    const shown = JSON.stringify(truncate(site.value));
    const url = parseUri(site.value, site.base);
    if (url === undefined) return refuse('invalid_schema', `${site.pointer}: ${shown} ${unresolvable(site.value, site.base)}`);
    const document = withoutHash(url);
    if (!index.resources.has(document)) {
      return refuse('remote_ref', `${site.pointer}: ${shown} points outside this schema; remote references are never fetched`);
    }
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return refuse('invalid_schema', `${site.pointer}: ${shown} has a malformed percent-escape`);
    }
    const key = `${document}#${fragment}`;
    let target: SchemaObject | boolean | undefined;
    if (fragment === '' || fragment.startsWith('/')) target = index.locations.get(key);
    // A `$dynamicAnchor` is also a plain anchor for `$ref` (2020-12 Core §8.2.2); whether a library supports that
    // is its adapter's to say (cfworker's does not: cfworker-checks.ts).
    else target = index.anchors.get(key) ?? index.dynamicAnchors.get(key);
    if (target === undefined) return refuse('unresolved_ref', `${site.pointer}: ${shown} does not resolve to a subschema of this document`);
    const list = targets.get(site.node) ?? [];
    list.push(target);
    // 2019-09: a $recursiveRef may land on any resource root marked $recursiveAnchor; count all of them.
    if (site.keyword === '$recursiveRef') list.push(...index.recursiveAnchors);
    targets.set(site.node, list);
  }
  return { status: 'accepted', targets };
}

function refuse(code: Refusal['code'], message: string): Refused {
  return { status: 'refused', refusal: { code, message } };
}
