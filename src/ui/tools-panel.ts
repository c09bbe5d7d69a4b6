import { h } from './dom.ts';
import { renderWarnings } from './result-view.ts';

/** A tool as the panel shows it: callable (accepted, maybe with warnings) or refused with a code and reason. */
export type ToolEntry =
  | {
      readonly status: 'accepted';
      readonly name: string;
      readonly title?: string;
      readonly warnings: readonly { code: string; message: string }[];
    }
  | { readonly status: 'refused'; readonly name: string; readonly title?: string; readonly code: string; readonly message: string };

/** What the panel lists: every tool, how many can be called and how many are refused. */
export interface ToolCounts {
  readonly listed: number;
  readonly callable: number;
  readonly refused: number;
}

export interface ToolsPanel {
  readonly element: HTMLElement;
  show(entries: readonly ToolEntry[]): void;
  /** Turns a listed, accepted tool into a refused one (a validation that ran out of time); false if it was not. */
  refuse(name: string, code: string, message: string): boolean;
}

/**
 * The tool list with each tool's verdict. Only accepted tools have a button; refused ones say why instead (and in
 * their name's tooltip). `onChange` hears the counts whenever the list changes, so a status line can match it.
 */
export function createToolsPanel(onSelect: (name: string) => void, onChange?: (counts: ToolCounts) => void): ToolsPanel {
  const count = h('p', { class: 'muted', 'data-testid': 'tools-count' }, 'Connecting…');
  const list = h('ul', { class: 'tools', 'data-testid': 'tools' });
  const element = h(
    'section',
    { class: 'tools-panel', 'aria-labelledby': 'tools-heading' },
    h('h2', { id: 'tools-heading' }, 'Tools'),
    count,
    list,
  );
  let entries: ToolEntry[] = [];
  let selected: string | undefined;

  const item = (entry: ToolEntry): HTMLElement => {
    const label = entry.title ? [entry.title, ' ', h('code', {}, entry.name)] : [h('code', {}, entry.name)];
    if (entry.status === 'refused') {
      const why = `Refused (${entry.code}): ${entry.message}`;
      return h(
        'li',
        { class: 'tool refused', 'data-testid': `tool-${entry.name}`, 'data-verdict': 'refused', 'aria-disabled': 'true' },
        // The strike-through is decoration; the tooltip and the hidden word say it for pointer and screen reader users.
        h(
          'span',
          { class: 'tool-name', title: why, 'data-testid': 'refused-name' },
          ...label,
          h('span', { class: 'visually-hidden' }, ' (refused)'),
        ),
        h('span', { class: 'badge', 'data-testid': 'refusal-code' }, entry.code),
        h('p', { class: 'reason', 'data-testid': 'refusal-reason' }, entry.message),
        h('p', { class: 'muted' }, 'Refused by schema policy: not callable.'),
      );
    }
    const button = h('button', { type: 'button', class: 'tool-select', 'aria-pressed': String(entry.name === selected) }, ...label);
    button.addEventListener('click', () => {
      selected = entry.name;
      render();
      onSelect(entry.name);
    });
    const warned = entry.warnings.length > 0;
    return h(
      'li',
      {
        class: `tool accepted${warned ? ' warned' : ''}`,
        'data-testid': `tool-${entry.name}`,
        'data-verdict': warned ? 'warning' : 'accepted',
      },
      button,
      ...(warned ? [renderWarnings(entry.warnings, 'tool-warnings')] : []),
    );
  };

  const render = (): void => {
    const refused = entries.filter((e) => e.status === 'refused').length;
    count.textContent = `${entries.length - refused} callable, ${refused} refused`;
    list.replaceChildren(...entries.map(item));
    onChange?.({ listed: entries.length, callable: entries.length - refused, refused });
  };

  return {
    element,
    show(next) {
      entries = [...next];
      render();
    },
    refuse(name, code, message) {
      if (!entries.some((e) => e.name === name && e.status === 'accepted')) return false;
      entries = entries.map((e) =>
        e.name === name ? { status: 'refused', name, ...(e.title ? { title: e.title } : {}), code, message } : e,
      );
      render();
      return true;
    },
  };
}
