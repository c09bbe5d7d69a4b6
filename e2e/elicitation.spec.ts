import { expect, expectAccessible, openDemo, received, selectTool, test } from './demo-page.ts';

test('an elicitation is a form: a wrong answer is blocked, a right one reaches the server with defaults filled', async ({ page }) => {
  const before = (await received()).elicitations.length;
  await openDemo(page);
  const form = await selectTool(page, 'sign_up');
  await expect(form.getByTestId('call-button')).toBeEnabled();
  await form.getByTestId('call-button').click();

  const dialog = page.getByTestId('elicitation-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Sign up for the demo');
  const answer = dialog.getByTestId('elicitation-form');
  const send = dialog.getByTestId('elicit-send');

  // Defaults pre-filled; enum as a select; multi-select as checkboxes.
  await expect(answer.getByTestId('field-newsletter')).toBeChecked();
  await expect(answer.locator('select[data-testid="field-color"] option:checked')).toHaveText('green');
  await expect(answer.getByTestId('field-interests').getByRole('checkbox')).toHaveCount(3);

  // A wrong answer is blocked in the form.
  await answer.getByTestId('field-name').fill('Ada');
  await answer.getByTestId('field-email').fill('ada-at-example');
  // In words under the label; the engine's path and sentence stay on the line for developers.
  await expect(answer.getByTestId('error-email')).toHaveText('Email: a valid email');
  await expect(answer.getByTestId('error-email').getByTestId('field-issue')).toHaveAttribute(
    'title',
    '$.email: "ada-at-example" is not a valid email',
  );
  await expect(answer).toHaveAttribute('data-validation', 'invalid');
  await expect(send).toBeDisabled();
  // Only the edited fields speak up: the name is fine, the untouched age is optional.
  await expect(answer.getByTestId('error-name')).toBeHidden();
  await expectAccessible(page, 'elicitation dialog open');

  await answer.getByTestId('field-email').fill('ada@example.com');
  await answer.getByLabel('JSON Schema').check();
  await expect(answer).toHaveAttribute('data-validation', 'valid');
  await expect(send).toBeEnabled();
  await send.click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('result').last().getByTestId('content-text')).toContainText('elicitation accept');
  const answers = (await received()).elicitations.slice(before);
  expect(answers).toEqual([
    { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', newsletter: true, color: 'green', interests: ['schemas'] } },
  ]);
});

test('declining an elicitation sends the decline and nothing else', async ({ page }) => {
  const before = (await received()).elicitations.length;
  await openDemo(page);
  const form = await selectTool(page, 'sign_up');
  await form.getByTestId('call-button').click();
  const dialog = page.getByTestId('elicitation-dialog');
  await dialog.getByTestId('field-email').fill('typed but never sent');
  await dialog.getByTestId('elicit-decline').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('result').last().getByTestId('content-text')).toContainText('elicitation decline');
  expect((await received()).elicitations.slice(before)).toEqual([{ action: 'decline' }]);
});
