import { h } from './dom.ts';

const label = (count: number): string => `Responsiveness probe: ${count} ${count === 1 ? 'click' : 'clicks'}`;

/**
 * A responsiveness probe that is always on screen: if validation ever ran on the page's thread, this button
 * would stop counting. Each click records its input delay (handler time minus the event's time stamp). Returns
 * the button with its one-line explanation.
 */
export function createCounterButton(): HTMLElement {
  let count = 0;
  const help = h(
    'small',
    { id: 'probe-help', class: 'muted' },
    'Click it while a schema is being checked: validation runs in a worker, so the count keeps up.',
  );
  const button = h(
    'button',
    { type: 'button', id: 'counter', class: 'counter', 'data-testid': 'counter', 'data-count': '0', 'aria-describedby': 'probe-help' },
    label(0),
  );
  button.addEventListener('click', (event) => {
    count += 1;
    button.dataset.count = String(count);
    button.dataset.delayMs = (performance.now() - event.timeStamp).toFixed(1);
    button.textContent = label(count);
  });
  return h('div', { class: 'probe', 'data-testid': 'probe' }, button, help);
}
