import { createSecondServer, type SecondServer } from '../test/helpers/second-server.ts';
import { expect, openDemo, test } from './demo-page.ts';
import { connectPort } from './ports.ts';
import { callLookup, connectTo, expectSecondServerRefusals } from './second-server-page.ts';

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
  await connectTo(page, serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('body')).toHaveAttribute('data-revision', '2026-07-28');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expectSecondServerRefusals(page);
  await callLookup(page, server, 'bergen');
});

test('the demo server still connects with the 2025-11-25 client', async ({ page }) => {
  await openDemo(page);
  await expect(page.locator('body')).toHaveAttribute('data-revision', '2025-11-25');
});
