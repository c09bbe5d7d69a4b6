import { type ServedHandler, serveFetchHandler } from '../examples/serve-fetch-handler.ts';
import { createSecondServer, type SecondServer } from '../test/helpers/second-server.ts';
import { consoleProblems, expect, openDemo, test } from './demo-page.ts';
import { connectPort } from './ports.ts';
import { callLookup } from './second-server-page.ts';

// The allow-listed port holds a recorder that notes each request's Authorization and passes the request on to the
// second server, so the test sees exactly what the gateway sent upstream.
const secret = 'Bearer e2e-secret-7f3a';
let server: SecondServer;
let recorder: ServedHandler;
let serverUrl: string;
const seen: { readonly method: string; readonly authorization: string | null; readonly trace: string | null }[] = [];

test.beforeAll(async () => {
  server = createSecondServer();
  const target = await server.listen(0);
  recorder = await serveFetchHandler(async (request) => {
    seen.push({ method: request.method, authorization: request.headers.get('authorization'), trace: request.headers.get('x-trace') });
    const headers = new Headers(request.headers);
    headers.delete('host');
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return fetch(target, { method: request.method, headers, ...(body === undefined ? {} : { body }) });
  }, connectPort);
  serverUrl = `${recorder.origin}/mcp`;
});
test.afterAll(async () => {
  await recorder.close();
  await server.close();
});

/** Everything the page keeps in IndexedDB, localStorage and sessionStorage, as one string to search. */
const storedText = (page: import('@playwright/test').Page): Promise<string> =>
  page.evaluate(async () => {
    const parts: string[] = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    for (const info of await indexedDB.databases()) {
      if (info.name === undefined) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name as string);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const name of db.objectStoreNames) {
        const store = db.transaction(name).objectStore(name);
        const all = await new Promise<unknown[]>((resolve) => {
          const request = store.getAll();
          request.onsuccess = () => resolve(request.result);
        });
        const keys = await new Promise<unknown[]>((resolve) => {
          const request = store.getAllKeys();
          request.onsuccess = () => resolve(request.result);
        });
        parts.push(JSON.stringify([keys, all]));
      }
      db.close();
    }
    return parts.join('\n');
  });

test('sends a server’s own request headers with its requests, keeps them for that server only, and stores them nowhere', async ({
  page,
}) => {
  const problems = consoleProblems(page);
  await openDemo(page);
  await page.getByTestId('server-headers-part').locator('summary').click();
  await page.getByTestId('server-url').fill(serverUrl);
  await page.getByTestId('server-headers').fill(`Authorization: ${secret}\nX-Trace: e2e`);
  await page.getByTestId('server-connect').click();
  await expect(page.locator('body')).toHaveAttribute('data-server', serverUrl);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await callLookup(page, server, 'oslo');

  // Every request that reached the server (initialize, the list, the call) carried them, through the gateway.
  expect(seen.length).toBeGreaterThanOrEqual(3);
  expect(seen.every((request) => request.authorization === secret && request.trace === 'e2e')).toBe(true);

  // Typing another server's URL empties the field (its headers would go to that server); back to this one, they return.
  await page.getByTestId('server-url').fill('');
  await expect(page.getByTestId('server-headers')).toHaveValue('');
  await page.getByTestId('server-connect').click();
  await expect(page.locator('body')).toHaveAttribute('data-server', '');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('server-url').fill(serverUrl);
  await expect(page.getByTestId('server-headers')).toHaveValue(`Authorization: ${secret}\nX-Trace: e2e`);

  // Kept in memory only: not in the address, the storage, the DOM's attributes or the console.
  expect(page.url()).not.toContain('e2e-secret');
  expect(await storedText(page)).not.toContain('e2e-secret');
  expect(await page.locator('body').evaluate((body) => body.outerHTML)).not.toContain('e2e-secret');
  expect(problems).toEqual([]);
});

test('refuses a header line it cannot send, and connects nowhere', async ({ page }) => {
  await openDemo(page);
  const before = seen.length;
  await page.getByTestId('server-headers-part').locator('summary').click();
  await page.getByTestId('server-url').fill(serverUrl);
  await page.getByTestId('server-headers').fill('Authorization Bearer no-colon');
  await page.getByTestId('server-connect').click();
  await expect(page.getByTestId('server-error')).toHaveText(
    'Request headers, line 1: write it as "Name: value", such as "Authorization: Bearer …"',
  );
  await expect(page.getByTestId('server-headers')).toBeFocused();
  await page.getByTestId('server-headers').fill('Mcp-Session-Id: forged');
  await page.getByTestId('server-connect').click();
  await expect(page.getByTestId('server-error')).toHaveText(
    'Request headers, line 1: Mcp-Session-Id is set by the page, the browser or the gateway, not here',
  );
  await expect(page.locator('body')).toHaveAttribute('data-server', '');
  expect(seen.length).toBe(before);
  // The demo's connection is untouched.
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
});
