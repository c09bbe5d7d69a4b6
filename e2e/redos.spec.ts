import { expect, openDemo, selectTool, test } from './demo-page.ts';

// `^(a+)+$` backtracks exponentially on this: a backtracking engine would run for hours. schemaval's patterns run
// in linear time (docs/decisions/009), so the answer comes at once and the tool stays usable.
const hostile = `${'a'.repeat(5000)}!`;

test('a ReDoS pattern is answered at once: the page keeps responding and the tool stays usable', async ({ page }) => {
  await openDemo(page);
  const form = await selectTool(page, 'match_pattern');
  await expect(form).toHaveAttribute('data-validation', 'invalid');
  await expect(page.getByTestId('counter')).toHaveAccessibleName('Responsiveness probe: 0 clicks');
  await expect(page.getByTestId('counter')).toHaveAccessibleDescription(/validation runs in a worker/);

  await form.getByTestId('field-text').fill(hostile);
  await expect(form.getByTestId('error-text')).toContainText('Text: must match the pattern "^(a+)+$"');
  await expect(form).toHaveAttribute('data-validation', 'invalid');
  await expect(form.getByTestId('call-button')).toBeDisabled();

  // Right after: a click (dispatched from a timer, so it waits for a free main thread) updates the counter, and the
  // next frame is painted, within 100 ms, three times over.
  const probe = await page.evaluate(async () => {
    const button = document.getElementById('counter') as HTMLButtonElement;
    const before = Number(button.dataset.count);
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const clicked = new Promise((resolve) => button.addEventListener('click', resolve, { once: true }));
      setTimeout(() => button.click(), 0);
      await clicked;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      samples.push(performance.now() - started);
    }
    return { samples, counted: Number(button.dataset.count) - before };
  });
  test.info().annotations.push({ type: 'click-to-frame ms', description: probe.samples.map((ms) => ms.toFixed(1)).join(', ') });
  expect(probe.counted).toBe(3);
  for (const ms of probe.samples) expect(ms).toBeLessThan(100);

  // The schema is not blamed: the tool stays accepted and a matching value can be sent.
  await expect(page.getByTestId('tool-match_pattern')).toHaveAttribute('data-verdict', 'accepted');
  await form.getByTestId('field-text').fill('aaaa');
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await expect(form.getByTestId('call-button')).toBeEnabled();
});
