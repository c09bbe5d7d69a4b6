import { h } from './dom.ts';

/** Who a transcript entry is from. */
export type Speaker = 'you' | 'server' | 'page';

/** One server's log of what the page sent and what came back. */
export interface Conversation {
  /** The server it is with (empty: the demo server). */
  readonly server: string;
  /** Adds an entry; one added while another server's conversation is shown waits, hidden, in its own. */
  add(speaker: Speaker, testId: string, ...children: readonly (Node | string)[]): HTMLElement;
}

/** The chat-style log: one conversation per server, the current one shown under a label naming its server. */
export interface Transcript {
  readonly element: HTMLElement;
  /** Shows `server`'s conversation (started empty the first time), labelled `label`, and returns it. */
  open(server: string, label: string): Conversation;
}

interface Shown {
  readonly conversation: Conversation;
  /** The "nothing yet" note, shown until the first entry. */
  readonly empty: HTMLElement;
  readonly list: HTMLElement;
}

export function createTranscript(): Transcript {
  const label = h('p', { class: 'conversation-server muted', id: 'conversation-server', 'data-testid': 'conversation-server' });
  const body = h('div', { class: 'conversation-body' });
  const element = h(
    'section',
    { class: 'conversation', 'aria-labelledby': 'conversation-heading' },
    h('h2', { id: 'conversation-heading' }, 'Conversation'),
    label,
    body,
  );
  // Kept in memory for this page only: going back to a server shows what was said with it, and nothing else.
  const conversations = new Map<string, Shown>();

  const start = (server: string): Shown => {
    // It scrolls once long, so it takes focus (keyboard users scroll it with the arrow keys) and has a name.
    const list = h('ol', {
      class: 'transcript',
      'data-testid': 'transcript',
      'data-server': server,
      'aria-live': 'polite',
      'aria-labelledby': 'conversation-heading conversation-server',
      tabindex: '0',
    });
    const empty = h('p', { class: 'muted' }, 'Pick a tool, fill in its form and call it; what happens shows up here.');
    const conversation: Conversation = {
      server,
      add(speaker, testId, ...children) {
        empty.remove();
        const item = h(
          'li',
          { class: `message from-${speaker}`, 'data-testid': testId },
          h('span', { class: 'speaker' }, speaker),
          ...children,
        );
        list.append(item);
        if (list.isConnected) item.scrollIntoView({ block: 'nearest' });
        return item;
      },
    };
    return { conversation, empty, list };
  };

  return {
    element,
    open(server, text) {
      const entry = conversations.get(server) ?? start(server);
      conversations.set(server, entry);
      label.replaceChildren('with ', server === '' ? text : h('code', {}, text));
      label.dataset.server = server;
      body.replaceChildren(...(entry.list.childElementCount === 0 ? [entry.empty, entry.list] : [entry.list]));
      return entry.conversation;
    },
  };
}
