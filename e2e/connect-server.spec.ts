import { createSecondServer, type SecondServer } from '../test/helpers/second-server.ts';
import { expect, openDemo, test } from './demo-page.ts';
import { connectPort } from './ports.ts';
import { callLookup, connectTo, expectSecondServerRefusals } from './second-server-page.ts';

// A server of the test's own, on the port the e2e web server allow-lists (`--allow http://127.0.0.1:<connectPort>`).
let server: SecondServer;
let serverUrl: string;
test.beforeAll(async () => {
  server = createSecondServer();
  serverUrl = await server.listen(connectPort);
});
test.afterAll(async () => {
  await server.close();
});

test('connects to a second MCP server by URL, shows its refused tools with the reason, and calls the admitted one', async ({ page }) => {
  await openDemo(page);
  await connectTo(page, serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  // The demo's tools are gone; the second server's are listed with their verdicts.
  await expect(page.getByTestId('tool-get_weather')).toHaveCount(0);
  await expectSecondServerRefusals(page);
  await callLookup(page, server, 'oslo');

  // The choice is kept in the address: a reload reconnects to the same server.
  await expect(page).toHaveURL(new RegExp(`[?&]server=${encodeURIComponent(serverUrl).replace(/[.]/g, '\\.')}`));
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('server-url')).toHaveValue(serverUrl);
  await expect(page.getByTestId('tool-lookup')).toHaveAttribute('data-verdict', 'accepted');

  // An empty field goes back to the demo server.
  await connectTo(page, '');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('tool-get_weather')).toHaveAttribute('data-verdict', 'accepted');
});

test('says so when a server is not on the allow-list, and nothing reaches it', async ({ page }) => {
  await openDemo(page);
  // The same server under a name that is not on the list (localhost is not 127.0.0.1): the gateway never calls it.
  const before = server.requests();
  const lookAlike = serverUrl.replace('127.0.0.1', 'localhost');
  await connectTo(page, lookAlike);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'error');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'failed');
  await expect(page.getByTestId('server-error')).toContainText(`${lookAlike} is not on the gateway's allow-list (ALLOWED_UPSTREAMS)`);
  await expect(page.getByTestId('tools').locator('li')).toHaveCount(0);
  expect(server.requests()).toBe(before);

  await connectTo(page, 'not a url');
  await expect(page.getByTestId('server-error')).toContainText("Enter the server's http(s) MCP endpoint");
});

test('says so when an allowed server cannot be reached', async ({ page }) => {
  await server.close();
  await openDemo(page);
  await connectTo(page, serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'error');
  await expect(page.getByTestId('server-error')).toContainText(`The gateway could not reach ${serverUrl}`);
});
