// `npm run screenshots`: regenerates docs/images/*.png on purpose (the e2e tests never write there). Starts the
// demo like `npm start` on free ports, drives Chromium (CHROMIUM_PATH, default /usr/bin/chromium) through each
// page state, writes one PNG per state, and stops the demo. Options: `usage` below.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { scriptArgs } from './script-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}docs/images`;
const host = '127.0.0.1';
const { values } = scriptArgs({
  command: 'npm run screenshots',
  usage: `usage: npm run screenshots -- [--only NAME[,NAME]]
  Starts the demo on free ports (SCHEMAVAL_INSPECTOR_PORT moves its inspector), drives Chromium (CHROMIUM_PATH,
  default /usr/bin/chromium) and writes docs/images/NAME.png for each picture.
  --only NAMES  only these pictures, comma-separated: tools, form-error, result, elicitation, redos, narrow
  -h, --help    this help`,
  options: { only: { type: 'string' } },
});
const only = values.only === undefined ? undefined : new Set(values.only.split(','));

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, host, () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
  });

/** Each picture: a name, a viewport, and the steps that bring the page to the state it shows. */
const shots = [
  {
    name: 'tools',
    alt: 'the tools panel: accepted tools, one with a warning, two refused with code and reason',
    steps: async () => undefined,
  },
  {
    name: 'form-error',
    alt: 'get_weather with days = 12: "Days: at most 10" under the field, Call not ready',
    steps: async (page) => {
      const form = await select(page, 'get_weather');
      await form.getByTestId('field-city').fill('Oslo');
      await form.getByTestId('field-days').fill('12');
      await form.getByTestId('error-days').waitFor();
    },
  },
  {
    name: 'result',
    alt: 'a valid call and its result in the conversation',
    steps: async (page) => {
      const form = await select(page, 'get_weather');
      await form.getByTestId('field-city').fill('Oslo');
      await form.getByTestId('field-days').fill('3');
      await page.locator('[data-testid="tool-form"][data-validation="valid"]').waitFor();
      await form.getByTestId('call-button').click();
      await page.getByTestId('result').waitFor();
    },
  },
  {
    name: 'elicitation',
    alt: 'the elicitation dialog with a bad email: "Email: a valid email" under the field',
    steps: async (page) => {
      const form = await select(page, 'sign_up');
      await page.locator('[data-testid="tool-form"][data-validation="valid"]').waitFor();
      await form.getByTestId('call-button').click();
      const dialog = page.getByTestId('elicitation-dialog');
      await dialog.getByTestId('field-name').fill('Ada');
      await dialog.getByTestId('field-email').fill('ada-at-example');
      await dialog.getByTestId('error-email').waitFor();
    },
  },
  {
    name: 'redos',
    alt: 'the ReDoS pattern answered at once as a mismatch',
    steps: async (page) => {
      const form = await select(page, 'match_pattern');
      await form.getByTestId('field-text').fill(`${'a'.repeat(5000)}!`);
      await form.getByTestId('error-text').waitFor();
    },
  },
  {
    name: 'narrow',
    alt: 'the page at 360 px: one column, nothing scrolls sideways',
    viewport: { width: 360, height: 1000 },
    steps: async (page) => {
      const form = await select(page, 'get_weather');
      await form.getByTestId('field-city').fill('Oslo');
      await page.locator('[data-testid="tool-form"][data-validation="valid"]').waitFor();
      await form.getByTestId('call-button').click();
      await page.getByTestId('result').waitFor();
    },
  },
];

const unknown = [...(only ?? [])].filter((name) => !shots.some((shot) => shot.name === name));
if (unknown.length > 0) {
  console.error(`npm run screenshots: no picture named ${unknown.join(', ')} (npm run screenshots -- --help lists them)`);
  process.exit(2);
}

async function select(page, name) {
  await page.getByTestId(`tool-${name}`).getByRole('button').click();
  const form = page.locator(`[data-testid="tool-form"][data-tool="${name}"]`);
  await form.waitFor();
  return form;
}

const port = await freePort();
const demo = spawn(process.execPath, [`${root}scripts/demo.mjs`, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
const ready = new Promise((resolve, reject) => {
  let text = '';
  demo.stdout.on('data', (chunk) => {
    text += chunk;
    if (text.includes('schemaval demo: open')) resolve();
  });
  demo.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it was ready`)));
});
const stopDemo = async () => {
  if (demo.exitCode !== null) return;
  const exited = new Promise((resolve) => demo.once('exit', resolve));
  demo.kill('SIGTERM');
  await exited;
};

let browser;
try {
  await ready;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  mkdirSync(out, { recursive: true });
  for (const shot of shots) {
    if (only !== undefined && !only.has(shot.name)) continue;
    // A fresh context per picture: an empty IndexedDB, so every verdict is compiled as on a first visit.
    const context = await browser.newContext({ viewport: shot.viewport ?? { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://${host}:${port}/`);
    await page.locator('body[data-ready="true"]').waitFor();
    await shot.steps(page);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${out}/${shot.name}.png` });
    console.log(`docs/images/${shot.name}.png: ${shot.alt}`);
    await context.close();
  }
} catch (error) {
  console.error(`screenshots failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await stopDemo();
}
