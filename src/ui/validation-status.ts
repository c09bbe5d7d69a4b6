import { h } from './dom.ts';
import type { LiveState } from './live-validation.ts';

/** The one-line, screen-reader-announced state of a form's live validation. */
export interface ValidationStatus {
  readonly element: HTMLElement;
  show(state: LiveState): void;
}

const text = (state: LiveState): string => {
  switch (state.kind) {
    case 'waiting':
      return 'Checking…';
    case 'validating':
      return 'Validating in the worker…';
    case 'valid':
      return 'Valid.';
    case 'invalid':
      return state.issues.length === 1 ? '1 problem.' : `${state.issues.length} problems.`;
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
    show(state) {
      element.dataset.state = state.kind;
      if (state.kind === 'refused') element.dataset.code = state.code;
      else delete element.dataset.code;
      element.textContent = text(state);
    },
  };
}
