import { expect, openDemo, test } from './demo-page.ts';

test('after a reload, tool verdicts come from IndexedDB: no schema is compiled again', async ({ page }) => {
  await openDemo(page);
  const summary = page.getByTestId('verdict-summary');
  await expect(summary).toHaveText('6 tools: 4 callable, 2 refused · verdicts: 4 compiled here, 0 from cache, 2 from the gateway');

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(summary).toHaveText('6 tools: 4 callable, 2 refused · verdicts: 0 compiled here, 4 from cache, 2 from the gateway');
  await expect(summary).toHaveAttribute('data-compiled', '0');
  // Verdicts (and the gateway's refusals) are shown as before.
  await expect(page.getByTestId('tools-count')).toHaveText('4 callable, 2 refused');
  await expect(page.getByTestId('tool-legacy_lookup')).toHaveAttribute('data-verdict', 'warning');
});
