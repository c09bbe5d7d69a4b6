import { createSecondServer, type SecondServer } from '../test/helpers/second-server.ts';
import { expect, openDemo, selectTool, test } from './demo-page.ts';
import { connectPort } from './ports.ts';

// A server of the test's own that speaks only MCP 2026-07-28 (`legacy: 'reject'`: a 2025-11-25 `initialize` gets
// -32022), on the port the e2e web server allow-lists. The page's first attempt (v1 client) is refused, so it
// connects again with the v2 client pinned to 2026-07-28. Runs one at a time with connect-server.spec.ts (workers: 1).
let server: SecondServer;
let serverUrl: string;
test.beforeAll(async () => {
  server = createSecondServer({ legacy: 'reject' });
  serverUrl = await server.listen(connectPort);
});
test.afterAll(async () => {
  await server.close();
});

test('connects to a 2026-07-28-only server, shows its refused tools with the reason, and calls the admitted one', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('server-url').fill(serverUrl);
  await page.getByTestId('server-connect').click();
  await expect(page.locator('body')).toHaveAttribute('data-server', serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('body')).toHaveAttribute('data-revision', '2026-07-28');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('tools-count')).toHaveText('1 callable, 2 refused');

  const repeat = page.getByTestId('tool-repeat_check');
  await expect(repeat).toHaveAttribute('data-verdict', 'refused');
  await expect(repeat.getByTestId('refusal-code')).toHaveText('invalid_pattern');
  await expect(repeat.getByTestId('refusal-reason')).toContainText('#/properties/q/pattern: ');
  await expect(repeat.getByTestId('refusal-reason')).toContainText('backreference');
  await expect(page.getByTestId('tool-fetch_remote').getByTestId('refusal-code')).toHaveText('remote_ref');

  const form = await selectTool(page, 'lookup');
  await form.getByTestId('field-word').fill('Oslo');
  await expect(form.getByTestId('error-word')).toContainText('$.word: ');
  await form.getByTestId('field-word').fill('bergen');
  await expect(form).toHaveAttribute('data-validation', 'valid');
  await form.getByTestId('call-button').click();
  await expect(page.getByTestId('result').last()).toContainText('bergen: found on the second server');
  expect(server.calls).toEqual([{ name: 'lookup', arguments: { word: 'bergen' } }]);
});

test('the demo server still connects with the 2025-11-25 client', async ({ page }) => {
  await openDemo(page);
  await expect(page.locator('body')).toHaveAttribute('data-revision', '2025-11-25');
});
