import type { Issue } from '../protocol/issue.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import { debounce } from './debounce.ts';

/** Where a form's live validation stands; only `valid` lets the form be sent. */
export type LiveState =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'validating' }
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly issues: readonly Issue[] }
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

export interface LiveValidation {
  /** The form changed: validate `value` once input settles (issues found before validation win). */
  update(value: unknown, localIssues: readonly Issue[]): void;
  dispose(): void;
}

/**
 * Validates a form's value in the worker once typing pauses (`delayMs`, default 150), and reports each state.
 * Only the latest value's answer counts. A call past the worker's time budget (`TIMEOUT`) fails that value only
 * (it may be tried again); the validator itself answers `too_slow` once the schema is to blame (docs/isolation.md).
 */
export function createLiveValidation(
  check: (value: unknown) => Promise<ValidationOutcome>,
  onState: (state: LiveState) => void,
  delayMs = 150,
): LiveValidation {
  let latest = 0;
  let disposed = false;
  let lastKey: string | undefined;

  const run = async (value: unknown, seq: number): Promise<void> => {
    if (disposed || seq !== latest) return;
    onState({ kind: 'validating' });
    let state: LiveState;
    try {
      const outcome = await check(value);
      if (outcome.status === 'refused') state = { kind: 'refused', code: outcome.refusal.code, message: outcome.refusal.message };
      else state = outcome.status === 'valid' ? { kind: 'valid' } : { kind: 'invalid', issues: outcome.issues };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : String(error);
      state = { kind: 'failed', message: code === 'TIMEOUT' ? 'validation timed out; edit the value to try again' : message };
    }
    if (state.kind === 'failed' && seq === latest) lastKey = undefined; // the same value may be tried again
    if (!disposed && seq === latest) onState(state);
  };
  const later = debounce((value: unknown, seq: number) => void run(value, seq), delayMs);

  return {
    update(value, localIssues) {
      // The same value again (a re-dispatched event) keeps its state, so a valid form stays sendable.
      const key = JSON.stringify([value, localIssues]);
      if (key === lastKey) return;
      lastKey = key;
      const seq = ++latest;
      if (localIssues.length > 0) {
        later.cancel();
        onState({ kind: 'invalid', issues: localIssues });
        return;
      }
      onState({ kind: 'waiting' });
      later(value, seq);
    },
    dispose() {
      disposed = true;
      later.cancel();
    },
  };
}
