import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { elicitationDefaults } from '../host/browser.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import { h } from './dom.ts';
import { createLiveValidation, type LiveState } from './live-validation.ts';
import { createSchemaForm } from './schema-form.ts';
import { createValidationStatus } from './validation-status.ts';

/** A form-mode elicitation as the server sent it. */
export interface ElicitationRequest {
  readonly message: string;
  readonly requestedSchema: unknown;
}

export interface ElicitationDialogOptions {
  /** Validates an answer against `requestedSchema` (in the worker, formats asserted). */
  readonly validate: (requestedSchema: unknown, content: unknown) => Promise<ValidationOutcome>;
  /** Where the dialog is attached while open (default `document.body`). */
  readonly parent?: HTMLElement;
}

let dialogs = 0;

/**
 * Asks the person: renders `requestedSchema` as a modal form (defaults pre-filled) and resolves with their
 * answer. Send is enabled only once the answer, completed with the defaults, validates; Decline and Cancel
 * (or Escape) always work. An aborted request closes the dialog as a cancel.
 */
export function askElicitation(
  request: ElicitationRequest,
  options: ElicitationDialogOptions,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const n = ++dialogs;
  const schema = request.requestedSchema;
  const defaults = elicitationDefaults(schema);
  const status = createValidationStatus();
  const send = h('button', { type: 'submit', class: 'primary', 'data-testid': 'elicit-send', disabled: true }, 'Send');
  const decline = h('button', { type: 'button', 'data-testid': 'elicit-decline' }, 'Decline');
  const cancel = h('button', { type: 'button', 'data-testid': 'elicit-cancel' }, 'Cancel');
  const form = createSchemaForm(schema, { idPrefix: `elicit-${n}`, onInput: () => changed() });
  const headingId = `elicit-heading-${n}`;
  const formElement = h(
    'form',
    { method: 'dialog', novalidate: true, 'data-testid': 'elicitation-form' },
    form.element,
    status.element,
    h('div', { class: 'actions' }, send, decline, cancel),
  );
  const dialog = h(
    'dialog',
    { class: 'elicitation', 'data-testid': 'elicitation-dialog', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, 'The server asks'),
    h('p', { class: 'elicitation-message' }, request.message),
    formElement,
  );

  let state: LiveState = { kind: 'waiting' };
  const live = createLiveValidation(
    (content) => options.validate(schema, { ...defaults, ...(content as Record<string, unknown>) }),
    (next) => {
      state = next;
      formElement.dataset.validation = next.kind;
      status.show(next);
      form.showIssues(next.kind === 'invalid' ? next.issues : []);
      send.disabled = next.kind !== 'valid';
    },
  );
  const changed = (): void => {
    const { value, issues } = form.read();
    live.update(value, issues);
  };

  return new Promise<ElicitResult>((resolve) => {
    const finish = (result: ElicitResult): void => {
      live.dispose();
      signal?.removeEventListener('abort', aborted);
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(result);
    };
    const aborted = (): void => finish({ action: 'cancel' });
    formElement.addEventListener('submit', (event) => {
      event.preventDefault();
      if (state.kind !== 'valid') return;
      finish({ action: 'accept', content: form.read().value as ElicitResult['content'] });
    });
    decline.addEventListener('click', () => finish({ action: 'decline' }));
    cancel.addEventListener('click', () => finish({ action: 'cancel' }));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish({ action: 'cancel' });
    });
    signal?.addEventListener('abort', aborted);
    (options.parent ?? document.body).append(dialog);
    dialog.showModal();
    changed();
  });
}
