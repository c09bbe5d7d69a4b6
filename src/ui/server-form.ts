import { h } from './dom.ts';
import { parseRequestHeaders } from './request-headers.ts';

export interface ServerForm {
  readonly element: HTMLElement;
  /** Shows why the last connection failed (cleared by the next submit); `undefined` clears it. */
  setError(message: string | undefined): void;
  /** Disables the button while a connection is being made. */
  setBusy(busy: boolean): void;
}

/**
 * The MCP server the page talks to: a URL field (empty: the demo server the gateway is configured with), optional
 * request headers for it, and a Connect button. The page never reaches the server itself; the gateway does, if the
 * URL is on its allow-list. Headers are kept per server in this form's memory only (never stored, logged or put in
 * the address), so one server's credentials never go to another.
 */
export function createServerForm(
  initial: string,
  onConnect: (server: string, headers: Readonly<Record<string, string>>) => void,
): ServerForm {
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
  const headersField = h('textarea', {
    id: 'server-headers',
    rows: '2',
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    placeholder: 'Authorization: Bearer …',
    'aria-describedby': 'server-headers-hint',
    'data-testid': 'server-headers',
  });
  const button = h('button', { type: 'submit', 'data-testid': 'server-connect' }, 'Connect');
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'server-error', hidden: true });
  const headersPart = h(
    'details',
    { class: 'server-headers', 'data-testid': 'server-headers-part' },
    h('summary', {}, 'Request headers (optional)'),
    h('label', { for: 'server-headers', class: 'server-label headers-label' }, 'Headers for this server, one per line'),
    headersField,
    h(
      'p',
      { class: 'muted hint', id: 'server-headers-hint' },
      'Sent with this server’s requests through the gateway. Kept in this page’s memory only: not stored, not logged, not in the address.',
    ),
  );
  const element = h(
    'form',
    // novalidate: the page's own check says what is wrong (connect.ts) instead of the browser's bubble.
    { class: 'server-form', 'data-testid': 'server-form', 'aria-label': 'MCP server', novalidate: true },
    h('label', { for: 'server-url', class: 'server-label' }, 'MCP server URL'),
    h('div', { class: 'server-row' }, input, button),
    h(
      'p',
      { class: 'muted hint', id: 'server-hint' },
      'Streamable HTTP endpoint, reached through this page’s gateway. Empty: the demo server. Other servers must be on the gateway’s allow-list (ALLOWED_UPSTREAMS).',
    ),
    headersPart,
    error,
  );

  /** The header lines last connected with, by server. */
  const saved = new Map<string, string>();
  // Whether the person typed headers since the URL last changed: then they are for the URL being typed. Otherwise
  // the field follows the URL, showing that server's own headers (none: empty), never the previous server's.
  let typed = false;
  headersField.addEventListener('input', () => {
    typed = true;
  });
  input.addEventListener('input', () => {
    if (typed) return;
    headersField.value = saved.get(input.value.trim()) ?? '';
  });

  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const server = input.value.trim();
    const parsed = parseRequestHeaders(headersField.value);
    if (!parsed.ok) {
      headersPart.open = true;
      error.hidden = false;
      error.textContent = parsed.message;
      headersField.focus();
      return;
    }
    if (Object.keys(parsed.headers).length === 0) saved.delete(server);
    else saved.set(server, headersField.value);
    typed = false;
    onConnect(server, parsed.headers);
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
