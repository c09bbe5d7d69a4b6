import { expect, gotoDemo, selectTool, test } from './demo-page.ts';

// `?budget=1` gives this page's validator a 1 ms budget and `?maxWork=1000000` twenty times the default work bound
// (docs/ui.md). Work is bounded, so only an honest overrun can make a tool too_slow: the value must be one the work
// bound admits, and long enough that the overrun outlasts any delay of the page's watchdog, which only sees an
// overrun still running when it looks. A million `a`s against match_pattern's pattern are admitted (about 375,000
// steps) and take 20-30 ms to match. Under the default bound the most it admits, 133,320 characters, takes about
// 5 ms: a loaded machine's main thread looked late enough to miss that in CI.
const demoPath = '/?budget=1&maxWork=1000000';
const big = (i: number): string => `${'a'.repeat(1_000_000)}${i}!`;
/** After three timeouts in a row the validator refuses the schema (docs/isolation.md); the fourth check says so. */
const attemptsToRefusal = 4;

test('a tool that becomes too_slow is refused in the panel and the status line, and stays refused after a reload', async ({ page }) => {
  await gotoDemo(page, demoPath);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const summary = page.getByTestId('verdict-summary');
  await expect(summary).toHaveText('6 tools: 4 callable, 2 refused · verdicts: 4 compiled here, 0 from cache, 2 from the gateway');

  const form = await selectTool(page, 'match_pattern');
  const status = form.getByTestId('validation-status');
  const states: string[] = [];
  for (let i = 0; i < attemptsToRefusal; i++) {
    await form.getByTestId('field-text').fill(big(i));
    await expect(status).toHaveAttribute('data-state', /^(failed|refused|invalid|valid)$/, { timeout: 20_000 });
    const state = (await status.getAttribute('data-state')) ?? '';
    states.push(state);
    if (state === 'refused') break;
    // Every check before the refusal overran the budget: a verdict here means the value no longer does.
    await expect(status).toContainText('timed out');
  }
  test.info().annotations.push({ type: 'states until refused', description: states.join(', ') });
  expect(states.at(-1)).toBe('refused');
  await expect(status).toHaveAttribute('data-code', 'too_slow');
  await expect(form.getByTestId('call-button')).toBeDisabled();

  const tool = page.getByTestId('tool-match_pattern');
  await expect(tool).toHaveAttribute('data-verdict', 'refused');
  await expect(tool.getByTestId('refusal-code')).toHaveText('too_slow');
  await expect(page.getByTestId('tools-count')).toHaveText('3 callable, 3 refused');
  await expect(summary).toHaveText('6 tools: 3 callable, 3 refused · verdicts: 4 compiled here, 0 from cache, 2 from the gateway');
  await expect(page.locator('body')).toHaveAttribute('data-refusals-saved', '1');

  // After a reload the verdict comes from IndexedDB: still refused, nothing compiled, no validation needed.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const again = page.getByTestId('tool-match_pattern');
  await expect(again).toHaveAttribute('data-verdict', 'refused');
  await expect(again.getByTestId('refusal-code')).toHaveText('too_slow');
  await expect(again.getByTestId('refusal-reason')).toContainText('ran past the 1 ms budget');
  await expect(again.getByRole('button')).toHaveCount(0);
  await expect(summary).toHaveText('6 tools: 3 callable, 3 refused · verdicts: 0 compiled here, 4 from cache, 2 from the gateway');
});
