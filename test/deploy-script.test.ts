// `npm run deploy` (scripts/deploy.mjs): the page is optional, and a dry run publishes what the plan says.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deployPlan, pageEnabled, withoutAssets } from '../scripts/deploy.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs the script as `npm run deploy -- --dry-run` would, without an account or network. */
function dryRun(page: string | undefined) {
  const outdir = mkdtempSync(join(tmpdir(), 'schemaval-deploy-'));
  const env: Record<string, string | undefined> = { ...process.env, SCHEMAVAL_PAGE: page };
  if (page === undefined) delete env.SCHEMAVAL_PAGE;
  const run = spawnSync(process.execPath, ['scripts/deploy.mjs', '--dry-run', '--outdir', outdir], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const bundled = existsSync(join(outdir, 'index.js'));
  rmSync(outdir, { recursive: true, force: true });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, bundled };
}

describe('deploy script', () => {
  it('publishes the page unless SCHEMAVAL_PAGE is off, and refuses any other value', () => {
    assert.equal(pageEnabled(undefined), true);
    assert.equal(pageEnabled(''), true);
    assert.equal(pageEnabled(' ON '), true);
    assert.equal(pageEnabled('off'), false);
    assert.throws(() => pageEnabled('no'), /SCHEMAVAL_PAGE must be "on" or "off", got "no"/);
  });

  it('reads edge/wrangler.jsonc with the page and a copy without assets otherwise, passing extra arguments on', () => {
    const on = deployPlan({ env: {}, args: ['--env', 'staging'] });
    assert.equal(on.page, true);
    assert.match(on.config, /edge[/\\]wrangler\.jsonc$/);
    assert.deepEqual(on.wranglerArgs, ['deploy', '--config', on.config, '--env', 'staging']);
    assert.equal(on.dryRun, false);
    const off = deployPlan({ env: { SCHEMAVAL_PAGE: 'off' }, args: ['--dry-run'] });
    assert.equal(off.page, false);
    assert.match(off.config, /edge[/\\]\.wrangler[/\\]no-page[/\\]wrangler\.json$/);
    assert.equal(off.dryRun, true);
  });

  it('drops only assets and $schema from the configuration, keeping bindings, vars and limits', () => {
    const raw = {
      $schema: '../node_modules/wrangler/config-schema.json',
      name: 'schemaval-edge',
      main: 'src/index.ts',
      vars: { OUTPUT_POLICY: 'warn' },
      assets: { directory: './public', run_worker_first: ['/mcp'] },
      durable_objects: { bindings: [{ name: 'SESSIONS', class_name: 'McpSession' }] },
      limits: { cpu_ms: 1000 },
    };
    assert.deepEqual(withoutAssets(raw, '/repo/edge'), {
      name: 'schemaval-edge',
      main: '/repo/edge/src/index.ts',
      vars: { OUTPUT_POLICY: 'warn' },
      durable_objects: { bindings: [{ name: 'SESSIONS', class_name: 'McpSession' }] },
      limits: { cpu_ms: 1000 },
    });
  });

  it('dry-runs without the page: the Worker is bundled with its bindings and no assets are read', () => {
    const run = dryRun('off');
    assert.equal(run.status, 0, run.output);
    assert.equal(run.bundled, true);
    assert.match(run.output, /publishing the Worker without the demo page/);
    assert.match(run.output, /env\.SESSIONS \(McpSession\)/);
    assert.doesNotMatch(run.output, /assets directory/);
    const written = JSON.parse(readFileSync(join(root, 'edge/.wrangler/no-page/wrangler.json'), 'utf8'));
    assert.equal(written.assets, undefined);
    assert.equal(written.name, 'schemaval-edge');
  });

  it('dry-runs with the page by default: it is built and its files are read as assets', () => {
    const run = dryRun(undefined);
    assert.equal(run.status, 0, run.output);
    assert.equal(run.bundled, true);
    assert.match(run.output, /page built into edge\/public/);
    assert.match(run.output, /Read \d+ files from the assets directory .*edge[/\\]public/);
    assert.ok(existsSync(join(root, 'edge/public/worker.js')));
  });

  it('exits 2 with the reason for a SCHEMAVAL_PAGE it does not understand, before building anything', () => {
    const run = dryRun('maybe');
    assert.equal(run.status, 2);
    assert.match(run.output, /deploy: SCHEMAVAL_PAGE must be "on" or "off", got "maybe"/);
    assert.equal(run.bundled, false);
  });
});
