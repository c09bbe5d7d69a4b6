import { h } from './dom.ts';
import type { LiveState } from './live-validation.ts';

/** The one-line, screen-reader-announced state of a form's live validation. */
export interface ValidationStatus {
  readonly element: HTMLElement;
  /** `shown`: how many of an invalid state's issues the form displays (the rest wait for an edit or a send). */
  show(state: LiveState, shown?: number): void;
}

const problems = (n: number): string => (n === 1 ? '1 problem' : `${n} problems`);

const text = (state: LiveState, shown: number): string => {
  switch (state.kind) {
    case 'waiting':
      return 'Checking…';
    case 'validating':
      return 'Validating in the worker…';
    case 'valid':
      return 'Valid.';
    case 'invalid': {
      const total = state.issues.length;
      if (shown === 0) return 'Not ready to send yet.';
      if (shown >= total) return `${problems(total)}.`;
      return `${problems(shown)}; ${total - shown} more in fields not edited yet.`;
    }
    case 'refused':
      return `Refused (${state.code}): ${state.message}`;
    case 'failed':
      return `Validation failed: ${state.message}`;
  }
};

export function createValidationStatus(): ValidationStatus {
  const element = h('p', { class: 'validation-status', role: 'status', 'data-testid': 'validation-status' });
  return {
    element,
    show(state, shown = Number.POSITIVE_INFINITY) {
      element.dataset.state = state.kind;
      if (state.kind === 'refused') element.dataset.code = state.code;
      else delete element.dataset.code;
      element.textContent = text(state, shown);
    },
  };
}
