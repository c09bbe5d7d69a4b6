import { expect, openDemo, selectTool, test } from './demo-page.ts';

test('a result that breaks its outputSchema is delivered with a visible warning', async ({ page }) => {
  await openDemo(page);
  const form = await selectTool(page, 'legacy_lookup');
  await form.getByTestId('field-id').fill('42');
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await form.getByTestId('call-button').click();

  const result = page.getByTestId('result').last();
  await expect(result.getByTestId('content-text')).toHaveText('record 42: Ada');
  await expect(result.getByTestId('structured-content')).toContainText('"id": 42');
  const warnings = result.getByTestId('output-warnings');
  await expect(warnings).toContainText('structured_content_invalid');
  await expect(warnings).toContainText('$.id: got integer, want string');
});
