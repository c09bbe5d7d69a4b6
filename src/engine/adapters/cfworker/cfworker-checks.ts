// What @cfworker/json-schema would enforce wrongly or not at all: refused here, with the adapter, not in the core.
import type { Refusal } from '../../../protocol/refusal.ts';
import type { AdapterCheckInput } from '../../schema/schema-validator-adapter.ts';
import { checkUnevaluated } from './check-unevaluated.ts';
import { linearPatternsAvailable } from './linear-regexp-scope.ts';

/**
 * cfworker's own refusals, after the engine's policy pass: `$dynamicRef` (2020-12), which it ignores; any pattern
 * in a runtime whose `RegExp` global cannot be replaced, since cfworker would then backtrack (never silently); and
 * `unevaluated*` where its shared record of evaluated names would decide them wrongly (`checkUnevaluated`).
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
  return checkUnevaluated(input.schema, dialect, index, input.targets);
}
