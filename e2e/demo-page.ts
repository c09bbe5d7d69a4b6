// Shared steps of the e2e tests: open the demo page, pick a tool, read what the upstream server received.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { upstreamOrigin } from './ports.ts';

/** What the demo upstream server has received so far (GET /received). */
export interface Received {
  readonly calls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[];
  readonly elicitations: readonly { readonly action?: string; readonly content?: Record<string, unknown>; readonly error?: string }[];
}

export async function received(): Promise<Received> {
  const response = await fetch(`${upstreamOrigin}/received`);
  expect(response.ok).toBe(true);
  return (await response.json()) as Received;
}

/** Playwright's `test`, failing any test whose page threw an uncaught error. */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Collects the page's console errors and warnings from now on (the browser's own "Failed to load resource" lines for
 * 4xx answers included), so a test can assert a normal connect leaves the console empty.
 */
export function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  return problems;
}

/** Loads a page of the demo, waiting out a restart of its edge (scripts/demo.mjs) for up to 20 s. */
export async function gotoDemo(page: Page, path: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await page.goto(path);
      return;
    } catch (error) {
      if (attempt >= 40 || !String(error).includes('ERR_CONNECTION_REFUSED')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Opens the page and waits until it has listed the tools. */
export async function openDemo(page: Page): Promise<void> {
  await gotoDemo(page, '/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
}

/** Selects an accepted tool and returns its form. */
export async function selectTool(page: Page, name: string) {
  await page.getByTestId(`tool-${name}`).getByRole('button').click();
  const form = page.getByTestId('tool-form');
  await expect(form).toHaveAttribute('data-tool', name);
  return form;
}

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation (each listed with the
 * elements it found). Screenshots for the docs are not taken here: `npm run screenshots` writes them on purpose.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  test
    .info()
    .annotations.push({ type: `axe: ${state}`, description: `${results.violations.length} violations, ${serious.length} serious` });
  expect(serious, `axe-core, ${state}`).toEqual([]);
}

/** Whether the document scrolls sideways (wider than the viewport), and the widest element that makes it so. */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; widest: string }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    let widest = '';
    let right = root.clientWidth;
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5) {
        right = box.right;
        widest = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} (${Math.round(box.right)} px)`;
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest };
  });
}
