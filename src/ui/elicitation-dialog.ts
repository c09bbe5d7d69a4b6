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

const focusable = 'button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * Asks the person: renders `requestedSchema` as a modal form (defaults pre-filled) and resolves with their
 * answer. Send sends only once the answer, completed with the defaults, validates (otherwise it shows every issue);
 * Decline and Cancel (or Escape) always work. Tab stays inside the dialog, and focus goes back to where it was
 * when the dialog closes. An aborted request closes the dialog as a cancel.
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
  const send = h('button', { type: 'submit', class: 'primary', 'data-testid': 'elicit-send', 'aria-disabled': 'true' }, 'Send');
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
  let sendWhenChecked = false;
  let accept = (): void => undefined;
  const render = (): void => {
    formElement.dataset.validation = state.kind;
    status.show(state, form.showIssues(state.kind === 'invalid' ? state.issues : []));
    send.setAttribute('aria-disabled', String(state.kind !== 'valid'));
  };
  const live = createLiveValidation(
    (content) => options.validate(schema, { ...defaults, ...(content as Record<string, unknown>) }),
    (next) => {
      state = next;
      render();
      if (next.kind === 'waiting' || next.kind === 'validating' || !sendWhenChecked) return;
      sendWhenChecked = false;
      if (next.kind === 'valid') accept();
      else {
        form.reveal();
        render();
      }
    },
  );
  const changed = (): void => {
    const { value, issues } = form.read();
    live.update(value, issues);
  };

  const opener = document.activeElement;
  return new Promise<ElicitResult>((resolve) => {
    let settled = false;
    const finish = (result: ElicitResult): void => {
      if (settled) return;
      settled = true;
      live.dispose();
      signal?.removeEventListener('abort', aborted);
      if (dialog.open) dialog.close();
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(result);
    };
    const aborted = (): void => finish({ action: 'cancel' });
    accept = () => finish({ action: 'accept', content: form.read().value as ElicitResult['content'] });
    formElement.addEventListener('submit', (event) => {
      event.preventDefault();
      if (state.kind === 'valid') accept();
      else if (state.kind === 'waiting' || state.kind === 'validating') sendWhenChecked = true;
      else {
        form.reveal();
        render();
      }
    });
    decline.addEventListener('click', () => finish({ action: 'decline' }));
    cancel.addEventListener('click', () => finish({ action: 'cancel' }));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish({ action: 'cancel' });
    });
    // Closed some other way (a second Escape the browser does not let us intercept): still an answer.
    dialog.addEventListener('close', () => finish({ action: 'cancel' }));
    // Keep Tab inside the dialog: from the last control to the first and back.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const controls = [...dialog.querySelectorAll<HTMLElement>(focusable)].filter(
        (control) => !(control as HTMLButtonElement).disabled && control.getClientRects().length > 0,
      );
      const first = controls[0];
      const last = controls[controls.length - 1];
      if (first === undefined || last === undefined) return;
      if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
    signal?.addEventListener('abort', aborted);
    (options.parent ?? document.body).append(dialog);
    dialog.showModal();
    changed();
  });
}
