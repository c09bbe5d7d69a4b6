import { expect, openDemo, screenshot, selectTool, test } from './demo-page.ts';

// `^(a+)+$` backtracks exponentially on this: in the page's own thread it would freeze the tab for minutes.
const hostile = `${'a'.repeat(32)}!`;

test('a hostile (ReDoS) schema does not freeze the page, and its timeout shows as a refusal', async ({ page }) => {
  await openDemo(page);
  const form = await selectTool(page, 'match_pattern');
  await expect(form).toHaveAttribute('data-validation', 'invalid');

  // Resolves in the page as soon as the form's value is in the worker.
  const validating = form.evaluate(
    (element: HTMLElement) =>
      new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          if (element.dataset.validation !== 'validating') return;
          observer.disconnect();
          resolve();
        });
        observer.observe(element, { attributes: true, attributeFilter: ['data-validation'] });
      }),
  );
  await form.getByTestId('field-text').fill(hostile);
  await validating;

  // While the worker is stuck: a click (dispatched from a timer, so it waits for a free main thread) updates the
  // counter, and the next frame is painted, within 100 ms, three times over.
  const probe = await page.evaluate(async () => {
    const form = document.querySelector<HTMLElement>('[data-testid="tool-form"]') as HTMLElement;
    const button = document.getElementById('counter') as HTMLButtonElement;
    const before = Number(button.dataset.count);
    const samples: number[] = [];
    const states: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const clicked = new Promise((resolve) => button.addEventListener('click', resolve, { once: true }));
      setTimeout(() => button.click(), 0);
      await clicked;
      states.push(form.dataset.validation);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      samples.push(performance.now() - started);
    }
    return { samples, counted: Number(button.dataset.count) - before, label: button.textContent, states };
  });
  test
    .info()
    .annotations.push({ type: 'click-to-frame ms while validating', description: probe.samples.map((ms) => ms.toFixed(1)).join(', ') });
  expect(probe.states).toEqual(['validating', 'validating', 'validating']);
  expect(probe.counted).toBe(3);
  expect(probe.label).toBe('Clicks: 3');
  for (const ms of probe.samples) expect(ms).toBeLessThan(100);

  // The worker overran its 250 ms budget: the schema is refused (too_slow) and the call cannot be made.
  const status = form.getByTestId('validation-status');
  await expect(form).toHaveAttribute('data-validation', 'refused');
  await expect(status).toHaveAttribute('data-code', 'too_slow');
  await expect(status).toContainText('Refused (too_slow)');
  await expect(form.getByTestId('call-button')).toBeDisabled();
  await expect(page.getByTestId('tool-match_pattern')).toHaveAttribute('data-verdict', 'refused');
  await expect(page.getByTestId('tool-match_pattern').getByTestId('refusal-code')).toHaveText('too_slow');

  await screenshot(page, 'redos');

  // A real (trusted) click is handled promptly too: its input delay is the time from the event to the handler.
  await page.getByTestId('counter').click();
  await expect(page.getByTestId('counter')).toHaveText('Clicks: 4');
  const delay = Number(await page.getByTestId('counter').getAttribute('data-delay-ms'));
  test.info().annotations.push({ type: 'trusted click input delay ms', description: delay.toFixed(1) });
  expect(delay).toBeLessThan(100);

  // The schema stays refused without another run; the respawned worker validates other tools as before.
  await form.getByTestId('field-text').fill('aaaa');
  await expect(form).toHaveAttribute('data-validation', 'refused');
  const weather = await selectTool(page, 'get_weather');
  await weather.getByTestId('field-city').fill('Oslo');
  await expect(weather).toHaveAttribute('data-validation', 'valid');
});
