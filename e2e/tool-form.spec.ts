import { expect, expectAccessible, openDemo, received, selectTool, test } from './demo-page.ts';

test('a wrong value shows its error in words under the label and keeps Call disabled; a right one calls the tool', async ({ page }) => {
  const before = (await received()).calls.length;
  await openDemo(page);
  const form = await selectTool(page, 'get_weather');
  const call = form.getByTestId('call-button');

  // The form is generated from inputSchema: a text field, an enum as a select (default pre-selected), an integer.
  await expect(form.locator('select[data-testid="field-units"] option:checked')).toHaveText('metric');

  // Empty city breaks minLength 1, but nobody is told off before typing: no error, Call not ready.
  await expect(form).toHaveAttribute('data-validation', 'invalid');
  await expect(form.getByTestId('validation-status')).toHaveText('Not ready to send yet.');
  await expect(form.getByTestId('error-city')).toBeHidden();
  await expect(form.getByTestId('field-city')).toHaveAttribute('aria-invalid', 'false');
  await expect(call).toBeDisabled();

  // Sending (Enter in a field) shows every issue, focuses the first field that has one, and sends nothing.
  await form.getByTestId('field-days').press('Enter');
  await expect(form.getByTestId('error-city')).toHaveText('City: at least 1 character');
  // The engine's path and sentence stay on the line for developers (data-path, tooltip).
  const cityIssue = form.getByTestId('error-city').getByTestId('field-issue');
  await expect(cityIssue).toHaveAttribute('data-path', '$.city');
  await expect(cityIssue).toHaveAttribute('title', '$.city: got 0 characters, want at least 1');
  await expect(form.getByTestId('field-city')).toBeFocused();
  await expect(form.getByTestId('validation-status')).toHaveText('1 problem.');

  await form.getByTestId('field-city').fill('Oslo');
  await form.getByTestId('field-days').fill('12');
  await expect(form.getByTestId('error-days')).toHaveText('Days: at most 10');
  await expect(form.getByTestId('error-days').getByTestId('field-issue')).toHaveAttribute('title', '$.days: got 12, want at most 10');
  await expect(form.getByTestId('error-city')).toBeHidden();
  await expect(form).toHaveAttribute('data-validation', 'invalid');
  await expect(call).toBeDisabled();
  await expect(form.getByTestId('field-days')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'form with errors');

  await form.getByTestId('field-days').fill('4');
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await expect(call).toBeEnabled();
  await expect(form.getByTestId('error-days')).toBeHidden();

  // From the keystroke until the worker has answered, Call is disabled (checked in the same task as the input).
  const pending = await form.evaluate((element) => {
    const days = element.querySelector<HTMLInputElement>('[data-testid="field-days"]') as HTMLInputElement;
    days.value = '3';
    days.dispatchEvent(new Event('input', { bubbles: true }));
    const button = element.querySelector<HTMLButtonElement>('[data-testid="call-button"]') as HTMLButtonElement;
    return { state: (element as HTMLElement).dataset.validation, disabled: button.getAttribute('aria-disabled') };
  });
  expect(pending).toEqual({ state: 'waiting', disabled: 'true' });
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await expect(call).toBeEnabled();

  await call.click();
  const result = page.getByTestId('result').last();
  await expect(result.getByTestId('content-text')).toHaveText('Oslo: 21°, clear');
  const structured = JSON.parse((await result.getByTestId('structured-content').textContent()) ?? 'null');
  expect(structured).toEqual({ city: 'Oslo', temperature: 21, conditions: 'clear' });
  await expectAccessible(page, 'result shown');

  // Only the valid arguments reached the upstream server.
  const calls = (await received()).calls.slice(before);
  expect(calls).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo', units: 'metric', days: 3 } }]);
});
