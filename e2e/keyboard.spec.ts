import type { Locator, Page } from '@playwright/test';
import { expect, openDemo, received, test } from './demo-page.ts';

/** Presses Tab (or Shift+Tab) until `target` has focus; fails if it is not reached in `limit` presses. */
async function tabTo(page: Page, target: Locator, key = 'Tab', limit = 40): Promise<number> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return presses;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${target}`);
}

test('the tool form works from the keyboard alone: Tab to fields, Enter and Space to call', async ({ page }) => {
  const before = (await received()).calls.length;
  await openDemo(page);
  await tabTo(page, page.getByTestId('tool-get_weather').getByRole('button'));
  await page.keyboard.press('Enter');
  const form = page.getByTestId('tool-form');
  await expect(form).toHaveAttribute('data-tool', 'get_weather');

  await tabTo(page, form.getByTestId('field-city'));
  await page.keyboard.type('Oslo');
  await page.keyboard.press('Tab'); // units: a select, its default kept
  await expect(form.getByTestId('field-units')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.getByTestId('field-days')).toBeFocused();
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  const call = form.getByTestId('call-button');
  await expect(call).toBeFocused();
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('result').last().getByTestId('content-text')).toHaveText('Oslo: 21°, clear');

  // Enter in a field right after typing: the call waits for the worker's answer, then goes out once.
  await form.getByTestId('field-days').focus();
  await page.keyboard.press('Backspace');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result')).toHaveCount(2);
  const calls = (await received()).calls.slice(before);
  expect(calls).toEqual([
    { name: 'get_weather', arguments: { city: 'Oslo', units: 'metric', days: 2 } },
    { name: 'get_weather', arguments: { city: 'Oslo', units: 'metric', days: 5 } },
  ]);
});

test('the elicitation dialog keeps focus inside, Escape cancels it, and focus returns to Call', async ({ page }) => {
  const before = (await received()).elicitations.length;
  await openDemo(page);
  await tabTo(page, page.getByTestId('tool-sign_up').getByRole('button'));
  await page.keyboard.press('Space');
  const call = page.getByTestId('tool-form').getByTestId('call-button');
  await tabTo(page, call);
  await expect(page.getByTestId('tool-form')).toHaveAttribute('data-validation', 'valid');
  await page.keyboard.press('Enter');

  const dialog = page.getByTestId('elicitation-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('field-name')).toBeFocused();
  // Around the dialog twice, both ways: focus never leaves it.
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 24; i++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
  }
  await dialog.getByTestId('field-name').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByTestId('elicit-cancel')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByTestId('field-name')).toBeFocused();

  await page.keyboard.type('Ada');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(call).toBeFocused();
  await expect(page.getByTestId('result').last().getByTestId('content-text')).toContainText('elicitation cancel');
  expect((await received()).elicitations.slice(before)).toEqual([{ action: 'cancel' }]);
});
