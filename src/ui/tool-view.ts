import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import { h } from './dom.ts';
import { createLiveValidation, type LiveState } from './live-validation.ts';
import { createSchemaForm } from './schema-form.ts';
import { createValidationStatus } from './validation-status.ts';

export interface ToolViewOptions {
  readonly tool: Tool;
  /** Validates arguments against the tool's `inputSchema` (in the worker; the same schema object every time). */
  readonly validate: (args: unknown) => Promise<ValidationOutcome>;
  /** Calls the tool; the view stays disabled until it settles. */
  readonly call: (args: unknown) => Promise<void>;
  /** Told when validating this tool's arguments became impossible (`too_slow`). */
  readonly onRefused?: (code: string, message: string) => void;
}

export interface ToolView {
  readonly element: HTMLElement;
  /**
   * Brings the view into sight and moves focus to its heading (once it is in the document): on a phone the form
   * sits below the tool list, off screen. The heading, not the first field, so no on-screen keyboard pops up and
   * Tab goes on to the first field.
   */
  focus(): void;
  dispose(): void;
}

/**
 * The selected tool: a form generated from its `inputSchema`, validated live in the worker, and a Call button
 * that calls only while the current arguments are known to be valid. The button stays focusable
 * (`aria-disabled`, not `disabled`): sending an invalid form shows every issue and focuses the first field; sending
 * while a value is still being checked calls once it turns out valid.
 */
export function createToolView(options: ToolViewOptions): ToolView {
  const { tool } = options;
  const status = createValidationStatus();
  const callButton = h('button', { type: 'submit', 'data-testid': 'call-button', 'aria-disabled': 'true' }, `Call ${tool.name}`);
  let state: LiveState = { kind: 'waiting' };
  let calling = false;
  let sendWhenChecked = false;

  const form = createSchemaForm(tool.inputSchema, { idPrefix: `tool-${tool.name}`, onInput: () => changed() });
  const headingId = `tool-heading-${tool.name}`;
  const heading = h(
    'h2',
    { id: headingId, tabindex: '-1', 'data-testid': 'tool-heading' },
    tool.title ?? tool.name,
    ' ',
    h('code', {}, tool.name),
  );
  const formElement = h(
    'form',
    { class: 'tool-form', 'data-testid': 'tool-form', 'data-tool': tool.name, 'aria-labelledby': headingId, novalidate: true },
    form.element,
    status.element,
    h('div', { class: 'actions' }, callButton),
  );
  const element = h(
    'section',
    { class: 'tool-view', 'data-testid': 'tool-view', 'data-tool': tool.name },
    heading,
    ...(tool.description ? [h('p', { class: 'muted' }, tool.description)] : []),
    formElement,
  );

  const render = (): void => {
    formElement.dataset.validation = state.kind;
    const shown = form.showIssues(state.kind === 'invalid' ? state.issues : []);
    status.show(state, shown);
    callButton.setAttribute('aria-disabled', String(calling || state.kind !== 'valid'));
  };

  const send = (): void => {
    calling = true;
    callButton.textContent = 'Calling…';
    render();
    void options.call(form.read().value).finally(() => {
      calling = false;
      callButton.textContent = `Call ${tool.name}`;
      render();
    });
  };

  const live = createLiveValidation(options.validate, (next) => {
    state = next;
    if (next.kind === 'refused') options.onRefused?.(next.code, next.message);
    const settled = next.kind !== 'waiting' && next.kind !== 'validating';
    if (settled && sendWhenChecked) {
      sendWhenChecked = false;
      if (next.kind === 'valid' && !calling) {
        send();
        return;
      }
      render();
      form.reveal();
    }
    render();
  });
  const changed = (): void => {
    const { value, issues } = form.read();
    live.update(value, issues);
  };

  formElement.addEventListener('submit', (event) => {
    event.preventDefault();
    if (calling) return;
    if (state.kind === 'valid') send();
    else if (state.kind === 'waiting' || state.kind === 'validating') sendWhenChecked = true;
    else {
      form.reveal();
      render();
    }
  });

  render();
  changed();
  const focus = (): void => {
    heading.focus({ preventScroll: true });
    // Scrolled only when some of it is out of sight, so a wide layout where it is already visible does not jump.
    const box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) element.scrollIntoView({ block: 'start' });
  };
  return { element, focus, dispose: () => live.dispose() };
}
