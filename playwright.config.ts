// Playwright drives Debian's Chromium (CHROMIUM_PATH); it never downloads a browser. The web server is the real
// demo: `npm start` = the page bundle, the upstream MCP server and `wrangler dev` for the edge, all on 127.0.0.1.
import { defineConfig } from '@playwright/test';
import { connectPort, edgePort, upstreamPort } from './e2e/ports.ts';

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // One retry in CI: the demo restarts wrangler dev if it exits on its own (scripts/demo.mjs); a test caught in that
  // gap runs again instead of failing the run. Retried tests are reported as flaky in the JSON report.
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${edgePort}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node scripts/demo.mjs --port ${edgePort} --upstream-port ${upstreamPort} --allow http://127.0.0.1:${connectPort}`,
    url: `http://127.0.0.1:${edgePort}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
