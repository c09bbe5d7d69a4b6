// Steps shared by the specs that point the page at the tests' second MCP server (test/helpers/second-server.ts).
import type { Page } from '@playwright/test';
import type { SecondServer } from '../test/helpers/second-server.ts';
import { expect, selectTool } from './demo-page.ts';

/** Types a server URL into the page and connects to it. */
export async function connectTo(page: Page, url: string): Promise<void> {
  await page.getByTestId('server-url').fill(url);
  await page.getByTestId('server-connect').click();
  await expect(page.locator('body')).toHaveAttribute('data-server', url);
}

/** The second server's two refused tools are listed with their codes and reasons, and cannot be selected. */
export async function expectSecondServerRefusals(page: Page): Promise<void> {
  await expect(page.getByTestId('tools-count')).toHaveText('1 callable, 2 refused');
  const repeat = page.getByTestId('tool-repeat_check');
  await expect(repeat).toHaveAttribute('data-verdict', 'refused');
  await expect(repeat.getByTestId('refusal-code')).toHaveText('invalid_pattern');
  await expect(repeat.getByTestId('refusal-reason')).toContainText('#/properties/q/pattern: ');
  await expect(repeat.getByTestId('refusal-reason')).toContainText('backreference');
  await expect(repeat.getByRole('button')).toHaveCount(0);
  const remote = page.getByTestId('tool-fetch_remote');
  await expect(remote.getByTestId('refusal-code')).toHaveText('remote_ref');
  await expect(remote.getByTestId('refusal-reason')).toContainText('https://schemas.example.net/item.json');
}

/** A wrong word is blocked in the form; `word` (lower case) is called, and only that call reaches the server. */
export async function callLookup(page: Page, server: SecondServer, word: string): Promise<void> {
  const before = server.calls.length;
  const form = await selectTool(page, 'lookup');
  await form.getByTestId('field-word').fill('Oslo');
  // No title: the words start with the property's name, as its label does.
  await expect(form.getByTestId('error-word')).toHaveText('word: must match the pattern "^[a-z]+$"');
  await form.getByTestId('field-word').fill(word);
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await form.getByTestId('call-button').click();
  await expect(page.getByTestId('result').last()).toContainText(`${word}: found on the second server`);
  expect(server.calls.slice(before)).toEqual([{ name: 'lookup', arguments: { word } }]);
}
