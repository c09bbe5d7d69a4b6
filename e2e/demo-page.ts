// Shared steps of the e2e tests: open the demo page, pick a tool, read what the upstream server received.
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

/** Opens the page and waits until it has listed the tools. */
export async function openDemo(page: Page): Promise<void> {
  await page.goto('/');
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

/** Writes a screenshot for the docs. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `docs/images/${name}.png` });
}
