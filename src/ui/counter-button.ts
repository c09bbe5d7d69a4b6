import { h } from './dom.ts';

/**
 * A responsiveness probe that is always on screen: if validation ever ran on the page's thread, this button
 * would stop counting. Each click records its input delay (handler time minus the event's time stamp).
 */
export function createCounterButton(): HTMLButtonElement {
  let count = 0;
  const button = h('button', { type: 'button', id: 'counter', class: 'counter', 'data-testid': 'counter', 'data-count': '0' }, 'Clicks: 0');
  button.addEventListener('click', (event) => {
    count += 1;
    button.dataset.count = String(count);
    button.dataset.delayMs = (performance.now() - event.timeStamp).toFixed(1);
    button.textContent = `Clicks: ${count}`;
  });
  return button;
}
