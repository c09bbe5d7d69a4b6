import { h } from './dom.ts';

export interface ServerForm {
  readonly element: HTMLElement;
  /** Shows why the last connection failed (cleared by the next submit); `undefined` clears it. */
  setError(message: string | undefined): void;
  /** Disables the button while a connection is being made. */
  setBusy(busy: boolean): void;
}

/**
 * The MCP server the page talks to: a URL field (empty: the demo server the gateway is configured with) and a
 * Connect button. The page never reaches the server itself; the gateway does, if the URL is on its allow-list.
 */
export function createServerForm(initial: string, onConnect: (server: string) => void): ServerForm {
  const input = h('input', {
    id: 'server-url',
    name: 'server',
    type: 'url',
    inputmode: 'url',
    autocomplete: 'url',
    spellcheck: 'false',
    placeholder: 'demo server (default)',
    'aria-describedby': 'server-hint',
    'data-testid': 'server-url',
  });
  input.value = initial;
  const button = h('button', { type: 'submit', 'data-testid': 'server-connect' }, 'Connect');
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'server-error', hidden: true });
  const element = h(
    'form',
    // novalidate: the page's own check says what is wrong (connect.ts) instead of the browser's bubble.
    { class: 'server-form', 'data-testid': 'server-form', 'aria-label': 'MCP server', novalidate: true },
    h('label', { for: 'server-url' }, 'MCP server URL'),
    h('div', { class: 'server-row' }, input, button),
    h(
      'p',
      { class: 'muted hint', id: 'server-hint' },
      'Streamable HTTP endpoint, reached through this page’s gateway. Empty: the demo server. Other servers must be on the gateway’s allow-list (ALLOWED_UPSTREAMS).',
    ),
    error,
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    onConnect(input.value.trim());
  });
  return {
    element,
    setError(message) {
      error.hidden = message === undefined;
      error.textContent = message ?? '';
    },
    setBusy(busy) {
      button.disabled = busy;
    },
  };
}
