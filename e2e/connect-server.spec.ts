import { createSecondServer, type SecondServer } from '../test/helpers/second-server.ts';
import { consoleProblems, expect, openDemo, selectTool, test } from './demo-page.ts';
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
  const problems = consoleProblems(page);
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
  // Connecting, listing, calling and switching servers logged nothing (the optional GET stream is not opened).
  expect(problems).toEqual([]);
});

test('keeps one conversation per server, labelled with it: switching never shows one server’s results under another', async ({ page }) => {
  await openDemo(page);
  const label = page.getByTestId('conversation-server');
  const results = page.getByTestId('transcript').getByTestId('result');
  await expect(label).toHaveText('with the demo server (the gateway’s default upstream)');
  const weather = await selectTool(page, 'get_weather');
  await weather.getByTestId('field-city').fill('Oslo');
  await expect(weather).toHaveAttribute('data-validation', 'valid');
  await weather.getByTestId('call-button').click();
  await expect(results).toHaveCount(1);
  await expect(results).toHaveAttribute('data-tool', 'get_weather');

  // The second server's conversation starts empty, under its URL: the demo's result is not in it.
  await connectTo(page, serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(label).toHaveText(`with ${serverUrl}`);
  await expect(page.getByTestId('transcript')).toHaveAttribute('data-server', serverUrl);
  await expect(page.getByTestId('transcript').locator('li')).toHaveCount(0);
  await callLookup(page, server, 'bergen');
  await expect(results).toHaveCount(1);
  await expect(results).toHaveAttribute('data-tool', 'lookup');

  // Back to the demo: its own conversation again, and the second server's result stays with that server.
  await connectTo(page, '');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(label).toHaveText('with the demo server (the gateway’s default upstream)');
  await expect(results).toHaveCount(1);
  await expect(results).toHaveAttribute('data-tool', 'get_weather');
  await expect(page.getByTestId('transcript')).not.toContainText('found on the second server');
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
