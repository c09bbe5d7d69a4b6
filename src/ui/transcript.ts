import { h } from './dom.ts';

/** Who a transcript entry is from. */
export type Speaker = 'you' | 'server' | 'page';

/** The chat-style log of what the page sent and what came back. */
export interface Transcript {
  readonly element: HTMLElement;
  add(speaker: Speaker, testId: string, ...children: readonly (Node | string)[]): HTMLElement;
}

export function createTranscript(): Transcript {
  // It scrolls once long, so it takes focus (keyboard users scroll it with the arrow keys) and has a name.
  const list = h('ol', {
    class: 'transcript',
    'data-testid': 'transcript',
    'aria-live': 'polite',
    'aria-labelledby': 'conversation-heading',
    tabindex: '0',
  });
  const empty = h('p', { class: 'muted' }, 'Pick a tool, fill in its form and call it; what happens shows up here.');
  const element = h(
    'section',
    { class: 'conversation', 'aria-labelledby': 'conversation-heading' },
    h('h2', { id: 'conversation-heading' }, 'Conversation'),
    empty,
    list,
  );
  return {
    element,
    add(speaker, testId, ...children) {
      empty.remove();
      const item = h(
        'li',
        { class: `message from-${speaker}`, 'data-testid': testId },
        h('span', { class: 'speaker' }, speaker),
        ...children,
      );
      list.append(item);
      item.scrollIntoView({ block: 'nearest' });
      return item;
    },
  };
}
