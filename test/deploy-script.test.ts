// `npm run deploy` (scripts/deploy.mjs): the page is optional, and a dry run publishes what the plan says.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deployPlan, fromUserDir, pageEnabled, readDeployArgs, withoutAssets, wranglerDeployOptions } from '../scripts/deploy.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** wrangler offline, as scripts/deploy.mjs runs a dry run. */
const offline = {
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: join(root, '.cache/xdg'),
};

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

  it('reads a relative --outdir (and the other path options) from where npm was run, not from edge/', () => {
    const plan = deployPlan({ env: { INIT_CWD: '/home/ada/site' }, args: ['--dry-run', '--outdir', 'out', '--var', 'A:b'] });
    assert.deepEqual(plan.wranglerArgs.slice(3), ['--dry-run', '--outdir', '/home/ada/site/out', '--var', 'A:b']);
    assert.deepEqual(fromUserDir(['--outfile=w/index.js', '--assets', '../public', '--tsconfig', '/abs/tsconfig.json'], '/home/ada'), [
      '--outfile=/home/ada/w/index.js',
      '--assets',
      '/home/public',
      '--tsconfig',
      '/abs/tsconfig.json',
    ]);
    // --metafile may stand alone (wrangler then writes bundle-meta.json into --outdir): the next option is no path.
    assert.deepEqual(fromUserDir(['--metafile', '--minify', '--name', 'out'], '/u'), ['--metafile', '--minify', '--name', 'out']);
  });

  it('bundles a relative --outdir into the directory npm was run in (INIT_CWD)', () => {
    const user = mkdtempSync(join(tmpdir(), 'schemaval-deploy-cwd-'));
    const run = spawnSync(process.execPath, ['scripts/deploy.mjs', '--dry-run', '--outdir', 'bundle'], {
      cwd: root,
      env: { ...process.env, SCHEMAVAL_PAGE: 'off', INIT_CWD: user },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const bundled = existsSync(join(user, 'bundle', 'index.js'));
    rmSync(user, { recursive: true, force: true });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.equal(bundled, true);
    assert.equal(existsSync(join(root, 'edge', 'bundle')), false);
  });

  it("takes wrangler deploy's options, their --no- forms and --help, and refuses any other before building", () => {
    assert.deepEqual(readDeployArgs(['--dry-run', '--outdir=x', '--no-minify', '-e', 'staging']), { kind: 'run' });
    assert.deepEqual(readDeployArgs(['--dry-run', '-h']), { kind: 'help' });
    assert.deepEqual(readDeployArgs(['--dry-run', '--out-dir', 'x']), { kind: 'error', message: 'unknown option --out-dir' });
    assert.deepEqual(readDeployArgs(['--verbose=1']), { kind: 'error', message: 'unknown option --verbose' });
  });

  it("knows exactly the options the pinned wrangler's deploy --help lists", () => {
    const help = spawnSync(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--help'], {
      cwd: join(root, 'edge'),
      env: { ...process.env, ...offline },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(help.status, 0, help.stderr);
    // Option lines: two spaces or more, then `-c, --config` or `--name`, aliases after commas.
    const listed = [...help.stdout.matchAll(/^ {2,}((?:-{1,2}[a-z][a-z0-9-]*)(?:, -{1,2}[a-z][a-z0-9-]*)*) {2,}/gm)].flatMap((match) =>
      (match[1] as string).split(', '),
    );
    assert.ok(listed.includes('--outdir'), help.stdout);
    assert.deepEqual(listed.filter((name) => name !== '-h' && name !== '--help').sort(), [...wranglerDeployOptions].sort());
  });

  it('exits 2 with the reason for a SCHEMAVAL_PAGE it does not understand, before building anything', () => {
    const run = dryRun('maybe');
    assert.equal(run.status, 2);
    assert.match(run.output, /deploy: SCHEMAVAL_PAGE must be "on" or "off", got "maybe"/);
    assert.equal(run.bundled, false);
  });
});
