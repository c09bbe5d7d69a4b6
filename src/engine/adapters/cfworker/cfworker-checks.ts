// What @cfworker/json-schema would enforce wrongly or not at all: refused here, with the adapter, not in the core.
import type { Refusal } from '../../../protocol/refusal.ts';
import { truncate } from '../../json/truncate.ts';
import type { SchemaIndex } from '../../schema/schema-types.ts';
import { parseUri, withoutHash } from '../../schema/schema-uri.ts';
import type { AdapterCheckInput } from '../../schema/schema-validator-adapter.ts';
import { checkUnevaluated } from './check-unevaluated.ts';
import { linearPatternsAvailable } from './linear-regexp-scope.ts';

/**
 * cfworker's own refusals, after the engine's policy pass: `$dynamicRef` (2020-12), which it ignores; any pattern
 * in a runtime whose `RegExp` global cannot be replaced, since cfworker would then backtrack (never silently); a
 * `$ref` naming a `$dynamicAnchor`, which cfworker does not index; and `unevaluated*` where its shared record of
 * evaluated names would decide them wrongly (`checkUnevaluated`).
 */
export function cfworkerChecks(input: AdapterCheckInput): Refusal | undefined {
  const { dialect, index } = input;
  if (dialect === '2020-12') {
    for (const node of index.pointerOf.keys()) {
      if ('$dynamicRef' in node) {
        return {
          code: 'unsupported_keyword',
          message: `${index.pointerOf.get(node) ?? '#'}/$dynamicRef: not enforced by the validator; schemaval refuses rather than ignore it`,
        };
      }
    }
  }
  const first = index.patterns[0];
  if (first !== undefined && !linearPatternsAvailable()) {
    return { code: 'invalid_pattern', message: `${first.pointer}: this runtime does not allow the linear-time matcher` };
  }
  return refToDynamicAnchor(index) ?? checkUnevaluated(input.schema, dialect, index, input.targets);
}

/** The first `$ref` whose target only a `$dynamicAnchor` names (the policy pass resolved every reference already). */
function refToDynamicAnchor(index: SchemaIndex): Refusal | undefined {
  if (index.dynamicAnchors.size === 0) return undefined;
  for (const site of index.refs) {
    const url = parseUri(site.value, site.base);
    if (url === undefined || url.hash.length < 2 || url.hash.startsWith('#/')) continue;
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      continue;
    }
    const key = `${withoutHash(url)}#${fragment}`;
    if (index.dynamicAnchors.has(key) && !index.anchors.has(key)) {
      const shown = JSON.stringify(truncate(site.value));
      return {
        code: 'unsupported_keyword',
        message: `${site.pointer}: ${shown} names a $dynamicAnchor, which the validator does not support`,
      };
    }
  }
  return undefined;
}
