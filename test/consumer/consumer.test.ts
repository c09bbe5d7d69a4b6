// The package as its users get it (issue #11 item 8): `npm pack`, the tarball installed into a scratch project
// outside the repository, then used there by a plain Node host, strict TypeScript consumers, an esbuild page in
// Chromium and a Workers project. Run with `npm run test:consumer`; see docs/consumers.md.
import assert from 'node:assert/strict';
import { access, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import playwrightConfig from '../../playwright.config.ts';
import { browserPageBuild, engineOnMainThread, shippedInputs } from '../helpers/bundle-inputs.ts';
import {
  childEnv,
  copyFixture,
  createScratch,
  createSiblingProject,
  expectOk,
  installedCopies,
  repoBin,
  repoRoot,
  run,
  type Scratch,
} from './scratch.ts';

/** The lowest version of each peer range (`^1.24.0` → `1.24.0`): the hosts below bring these, not our devDependencies. */
const peerFloor = (name: string): string => {
  const range = ownManifest.peerDependencies?.[name];
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range ?? '')?.[1];
  if (floor === undefined) throw new Error(`peerDependencies.${name} is ${range}, not a ^x.y.z range`);
  return floor;
};
const ownManifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as Scratch['manifest'] & {
  devDependencies: Record<string, string>;
};
const sdkV1 = peerFloor('@modelcontextprotocol/sdk');
const sdkV2 = peerFloor('@modelcontextprotocol/client');
const honoFloor = peerFloor('hono');

let scratch: Scratch;

before(async () => {
  // The main host brings its own SDK and hono, at the floor of our ranges (the repository tests the dev pins).
  scratch = await createScratch([`@modelcontextprotocol/sdk@${sdkV1}`, `hono@${honoFloor}`]);
});

after(async () => {
  await scratch?.remove();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Every file an `exports` entry points at, with the conditions that lead there. */
function exportTargets(value: unknown, conditions: string[] = []): { conditions: string[]; target: string }[] {
  if (typeof value === 'string') return [{ conditions, target: value }];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, [...conditions, key]));
}

/**
 * The subpaths a Node or browser module can import: not `./package.json` (data), and not `./edge`, whose types need
 * workerd's runtime types (`cloudflare:workers`); the Workers project below typechecks that one.
 */
function moduleSubpaths(manifest: Scratch['manifest']): string[] {
  return Object.keys(manifest.exports).filter((subpath) => !subpath.endsWith('.json') && subpath !== './edge');
}

/** The strictest consumer tsconfig: `skipLibCheck: false`, so our declarations and the SDK's are checked together. */
const strictConfig = (compilerOptions: { module: string; moduleResolution: string }) => ({
  compilerOptions: {
    ...compilerOptions,
    target: 'es2022',
    lib: ['es2023', 'dom'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
  },
  files: ['consumer.ts'],
});

const specifier = (subpath: string) => (subpath === '.' ? 'schemaval' : `schemaval/${subpath.slice(2)}`);

describe('the installed package', { concurrency: true }, () => {
  it('installs from the tarball, every export target exists, and no TypeScript loader comes along', async (t) => {
    t.diagnostic(`scratch project: ${scratch.dir}`);
    t.diagnostic(
      `npm pack ${Math.round(scratch.timings.pack ?? 0)} ms, npm install (${scratch.install}) ${Math.round(scratch.timings.install ?? 0)} ms`,
    );
    const targets = Object.entries(scratch.manifest.exports).flatMap(([subpath, value]) =>
      exportTargets(value).map((entry) => ({ subpath, ...entry })),
    );
    for (const subpath of ['.', './engine', './protocol', './host', './worker', './edge']) {
      const entry = scratch.manifest.exports[subpath];
      assert.ok(entry !== undefined, `exports has ${subpath}`);
      if (subpath !== './package.json')
        assert.ok(
          exportTargets(entry).some((e) => e.conditions.includes('types')),
          `${subpath} has types`,
        );
    }
    assert.ok(
      targets.some((entry) => entry.subpath === './host' && entry.conditions.includes('browser')),
      './host has a browser condition',
    );
    for (const { subpath, target } of targets) {
      assert.ok(await exists(join(scratch.packageDir, target)), `${subpath} → ${target} is in the tarball`);
      assert.doesNotMatch(target, /\.ts$(?<!\.d\.ts)/, `${subpath} → ${target} is not TypeScript source`);
    }
    assert.equal(await exists(join(scratch.dir, 'node_modules', 'tsx')), false, 'tsx is not installed with schemaval');
    const shipped = await readdir(scratch.packageDir);
    for (const folder of ['test', 'bench', 'e2e', '.ci', 'src', 'edge', 'examples'])
      assert.ok(!shipped.includes(folder), `no ${folder}/ in the tarball`);
    assert.ok(shipped.includes('LICENSE'), 'LICENSE is in the tarball');
    // The CLI is bundled: it needs none of the peers (or anything else) at run time.
    const cliFiles = [
      'cli.js',
      'node-worker.js',
      ...(await readdir(join(scratch.packageDir, 'dist/cli-chunks'))).map((f) => `cli-chunks/${f}`),
    ];
    for (const file of cliFiles.filter((f) => f.endsWith('.js'))) {
      // Code lines only: the bundle keeps the comments of what it inlined, usage examples included.
      const text = (await readFile(join(scratch.packageDir, 'dist', file), 'utf8'))
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
        .join('\n');
      const bare = [...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm)]
        .map((m) => m[1] ?? m[2] ?? '')
        .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:'));
      assert.deepEqual(bare, [], `dist/${file} imports no package`);
    }
  });

  it('peers, not pinned copies: the MCP SDKs and hono are peer ranges, zod is not ours', () => {
    const dependencies = scratch.manifest.dependencies ?? {};
    for (const name of ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client', 'hono', 'zod'])
      assert.equal(dependencies[name], undefined, `${name} is not a dependency`);
    assert.deepEqual(scratch.manifest.peerDependencies, {
      '@modelcontextprotocol/client': `^${sdkV2}`,
      '@modelcontextprotocol/sdk': `^${sdkV1}`,
      hono: `^${honoFloor}`,
    });
    // Each SDK is optional: a host brings the line it uses (schemaval/host needs neither at run time or for its types).
    assert.deepEqual(scratch.manifest.peerDependenciesMeta, {
      '@modelcontextprotocol/client': { optional: true },
      '@modelcontextprotocol/sdk': { optional: true },
      hono: { optional: true },
    });
    // The repository's own tests run against the dev pins: the other end of each range.
    for (const name of Object.keys(scratch.manifest.peerDependencies ?? {}))
      assert.match(ownManifest.devDependencies[name] ?? '', /^\d+\.\d+\.\d+$/, `${name} is an exact devDependency`);
  });

  it(`a v1 host with its own SDK (${sdkV1}) and hono (${honoFloor}) has one copy of each`, async (t) => {
    const sdk = await installedCopies(scratch.dir, '@modelcontextprotocol/sdk');
    t.diagnostic(`@modelcontextprotocol/sdk: ${sdk.map((c) => `${c.version} at ${c.path}`).join(', ')}`);
    assert.deepEqual(
      sdk.map((copy) => copy.version),
      [sdkV1],
      "only the host's SDK",
    );
    assert.deepEqual(
      (await installedCopies(scratch.dir, 'hono')).map((copy) => copy.version),
      [honoFloor],
    );
    assert.deepEqual(await installedCopies(scratch.packageDir, '@modelcontextprotocol/sdk'), [], 'nothing nested under schemaval');
    // npm agrees: the peer is satisfied by the host's copy (npm ls exits non-zero on an invalid or missing peer).
    const listed = expectOk(
      'npm ls',
      await run('npm', ['ls', '@modelcontextprotocol/sdk', '--all', '--json'], { cwd: scratch.dir, timeoutMs: 60_000 }),
    );
    const tree = JSON.parse(listed.stdout) as {
      dependencies?: Record<string, { version: string; dependencies?: Record<string, { version: string }> }>;
    };
    assert.equal(tree.dependencies?.['@modelcontextprotocol/sdk']?.version, sdkV1);
    assert.equal(tree.dependencies?.schemaval?.dependencies?.['@modelcontextprotocol/sdk']?.version, sdkV1);
  });

  it(`a v2 host (@modelcontextprotocol/client ${sdkV2}): no v1 SDK, withSchemaValidation and the provider at run time and in strict TypeScript`, async (t) => {
    const host = await createSiblingProject(scratch, 'v2-host', [`@modelcontextprotocol/client@${sdkV2}`]);
    t.diagnostic(`npm install (${host.install}) ${Math.round(host.timings.install ?? 0)} ms`);
    const copies = {
      client: (await installedCopies(host.dir, '@modelcontextprotocol/client')).map((copy) => copy.version),
      sdk: (await installedCopies(host.dir, '@modelcontextprotocol/sdk')).map((copy) => copy.version),
    };
    t.diagnostic(`copies: ${JSON.stringify(copies)}`);
    assert.deepEqual(copies.client, [sdkV2]);
    // schemaval/host imports no v1 SDK value and its declarations name no v1 type: a v2 host installs no v1 SDK.
    assert.deepEqual(copies.sdk, [], 'no v1 SDK');
    const script = [
      "import { Client } from '@modelcontextprotocol/client';",
      "import { schemavalProvider, withElicitationValidation, withSchemaValidation } from 'schemaval/host';",
      "import { createInlineValidator } from 'schemaval/host/inline';",
      'const validator = createInlineValidator();',
      "const client = new Client({ name: 'v2-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });",
      'const same = withElicitationValidation(client, { validator }) === client && withSchemaValidation(client, { validator }) === client;',
      "new Client({ name: 'p', version: '1.0.0' }, { jsonSchemaValidator: schemavalProvider() });",
      "client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));",
      "const outcome = await validator.validate({ type: 'integer' }, 'x');",
      'console.log(JSON.stringify({ same, status: outcome.status }));',
      '',
    ];
    await writeFile(join(host.dir, 'host.mjs'), script.join('\n'));
    const ran = expectOk('node host.mjs', await run(process.execPath, ['host.mjs'], { cwd: host.dir, timeoutMs: 60_000 }));
    assert.deepEqual(JSON.parse(ran.stdout.trim()), { same: true, status: 'invalid' });
    const lines = [
      "import { Client } from '@modelcontextprotocol/client';",
      "import { createValidator, schemavalProvider, withElicitationValidation, withSchemaValidation } from 'schemaval/host';",
      "import { createInlineValidator, type InlineValidatorOptions } from 'schemaval/host/inline';",
      'const options: InlineValidatorOptions = { timeBudgetMs: 250 };',
      "export const client: Client = withElicitationValidation(new Client({ name: 'host', version: '1.0.0' }), { validator: createValidator() });",
      "export const wrapped: Client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), { validator: createValidator() });",
      "export const provided = new Client({ name: 'p', version: '1.0.0' }, { jsonSchemaValidator: schemavalProvider() });",
      'export const inline = createInlineValidator(options);',
      // The outcome narrows on `status` alone (decision 018): a refusal's code needs no `in` test.
      'export async function refusalCode(): Promise<string | undefined> {',
      "  const outcome = await inline.validate({ type: 'integer' }, 1);",
      "  if (outcome.status === 'invalid') return outcome.issues[0].keyword;",
      "  return outcome.status === 'refused' ? outcome.refusal.code : undefined;",
      '}',
      '',
    ];
    await writeFile(join(host.dir, 'consumer.ts'), lines.join('\n'));
    await writeFile(
      join(host.dir, 'tsconfig.json'),
      `${JSON.stringify(strictConfig({ module: 'nodenext', moduleResolution: 'nodenext' }), null, 2)}\n`,
    );
    const checked = await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: host.dir,
      timeoutMs: 240_000, // several tsc runs and installs share the machine
    });
    assert.equal(checked.code, 0, `tsc reported errors:\n${checked.stdout}${checked.stderr}`);
  });

  it('plain Node ESM: the engine, the host in worker mode, and withSchemaValidation around a real SDK Client', async (t) => {
    const dir = await copyFixture('node', scratch);
    const result = expectOk('node consumer.mjs', await run(process.execPath, ['consumer.mjs'], { cwd: dir, timeoutMs: 60_000 }));
    t.diagnostic(`node consumer.mjs ${Math.round(result.ms)} ms`);
    const report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
    assert.equal(report.engineRefusal, 'remote_ref');
    assert.deepEqual(report.engineIssues, ['$.count type']);
    assert.equal(report.engineValid, 'valid');
    assert.equal(report.validatorMode, 'worker');
    assert.deepEqual(report.workerIssues, ['$.count minimum']);
    assert.equal(report.workerValid, 'valid');
    assert.equal(report.afterClose, 'CLOSED');
    assert.deepEqual(report.listed, ['add']);
    assert.deepEqual(report.warnings, ['remote remote_ref']);
    const wrong = report.wrongCall as { code: number; message: string };
    assert.equal(wrong.code, -32602);
    assert.match(wrong.message, /\$\.b: got string, want number/);
    assert.equal(report.callsAfterWrong, 0, 'the refused call never reached the server');
    assert.equal(report.rightCall, '3');
    assert.equal(report.callsAfterRight, 1);
  });

  for (const [name, compilerOptions] of [
    ['module nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['moduleResolution bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ] as const) {
    it(`strict TypeScript consumer (${name}, skipLibCheck: false) typechecks every entry against the host's SDK ${sdkV1}`, async (t) => {
      const dir = join(scratch.dir, `types-${compilerOptions.moduleResolution}`);
      await mkdir(dir, { recursive: true });
      const subpaths = moduleSubpaths(scratch.manifest);
      const lines = [
        '// Generated by test/consumer/consumer.test.ts: every entry of the package, and its main functions in use.',
        ...subpaths.map((subpath, i) => `import * as entry${i} from '${specifier(subpath)}';`),
        "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        "import { createEngine, type Engine } from 'schemaval/engine';",
        "import { createInlineValidator, createValidator, type Validator, withSchemaValidation } from 'schemaval/host';",
        "import type { ValidationOutcome } from 'schemaval/protocol';",
        '',
        `export const entries = [${subpaths.map((_, i) => `entry${i}`).join(', ')}];`,
        'const engine: Engine = createEngine();',
        "export const outcome: ValidationOutcome = engine.validate({ type: 'string' }, 'x');",
        'export const validator: Validator = createValidator({ timeBudgetMs: 250 });',
        "export const client: Client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), { validator });",
        'export const inline: Validator = createInlineValidator({ timeBudgetMs: 250 });',
        '// The declarations are real types, not `any`: a wrong option is an error.',
        '// @ts-expect-error timeBudgetMs is a number',
        "createValidator({ timeBudgetMs: 'soon' });",
        '',
      ];
      await writeFile(join(dir, 'consumer.ts'), lines.join('\n'));
      await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(strictConfig(compilerOptions), null, 2)}\n`);
      const result = await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
        cwd: dir,
        timeoutMs: 240_000, // several tsc runs and installs share the machine
      });
      t.diagnostic(`tsc (${name}) ${Math.round(result.ms)} ms over ${subpaths.length} entries`);
      assert.equal(result.code, 0, `tsc reported errors:\n${result.stdout}${result.stderr}`);
    });
  }

  it('an esbuild page (browser condition, explicit workerUrl) validates in Chromium and answers the ReDoS schema at once', async (t) => {
    const pageDir = await copyFixture('browser', scratch);
    const outdir = join(pageDir, 'dist');
    const bundled = await build({
      absWorkingDir: scratch.dir,
      entryPoints: { page: join(pageDir, 'page.mjs'), worker: 'schemaval/worker' },
      outdir,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(bundled.metafile.inputs);
    assert.ok(
      inputs.some((input) => input.includes('node_modules/schemaval/')),
      'the page is built from the installed package',
    );
    assert.deepEqual(
      inputs.filter((input) => /^node:|worker_threads|node-adapter/.test(input)),
      [],
      'no Node-only module in the browser bundle',
    );
    await copyFile(join(pageDir, 'index.html'), join(outdir, 'index.html'));

    // The page's main thread carries no engine: createValidator + withSchemaValidation from the installed package,
    // minified, against the host's own SDK (the engine is in the worker; inline mode is schemaval/host/inline).
    const mainThread = await build({
      ...browserPageBuild,
      stdin: {
        contents: "export { createValidator, withSchemaValidation } from 'schemaval/host';\n",
        resolveDir: scratch.dir,
        loader: 'js',
      },
      absWorkingDir: scratch.dir,
    });
    const shipped = shippedInputs(mainThread.metafile);
    assert.ok(shipped.some((input) => input.includes('node_modules/schemaval/dist/src/host/worker-client.js')));
    assert.deepEqual(
      shipped.filter((input) => engineOnMainThread.test(input)),
      [],
      'no engine on the main thread',
    );
    const bytes = mainThread.outputFiles[0]?.contents ?? new Uint8Array();
    t.diagnostic(
      `main thread (createValidator + withSchemaValidation, SDK ${sdkV1} included): ${(bytes.length / 1024).toFixed(1)} KB minified, ${(gzipSync(bytes).length / 1024).toFixed(1)} KB gzip`,
    );

    const server = await serveStatic(outdir);
    const browser = await chromium.launch(playwrightConfig.use?.launchOptions ?? {});
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const out = page.locator('#out');
      await out.and(page.locator('[data-state="done"], [data-state="error"]')).waitFor({ timeout: 20_000 });
      const text = (await out.textContent()) ?? '';
      assert.equal(await out.getAttribute('data-state'), 'done', text);
      const result = JSON.parse(text) as {
        mode: string;
        valid: { status: string };
        invalid: { status: string; issues: { path: string }[] };
        redos: { status: string; issues: { path: string; keyword: string }[] };
        redosMs: number;
        refused: { status: string; refusal?: { code: string } };
      };
      t.diagnostic(`ReDoS schema answered in ${result.redosMs.toFixed(1)} ms`);
      assert.equal(result.mode, 'worker');
      assert.equal(result.valid.status, 'valid');
      assert.equal(result.invalid.status, 'invalid');
      assert.deepEqual(
        result.invalid.issues.map((issue) => issue.path),
        ['$.text'],
      );
      assert.equal(result.redos.status, 'invalid', 'the hostile string does not match');
      assert.deepEqual(
        result.redos.issues.map((issue) => `${issue.path} ${issue.keyword}`),
        ['$.text pattern'],
      );
      assert.ok(result.redosMs < 250, `answered within the 250 ms budget (${result.redosMs.toFixed(1)} ms)`);
      assert.equal(result.refused.status, 'refused');
      assert.equal(result.refused.refusal?.code, 'remote_ref');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      server.close();
    }
  });

  it('a Workers project importing schemaval/edge builds with wrangler deploy --dry-run, typechecks, and serves in workerd', async (t) => {
    const dir = await copyFixture('workers', scratch);
    const outdir = join(dir, 'dist');
    const env = childEnv({
      CI: 'true',
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      XDG_CONFIG_HOME: join(scratch.dir, '.xdg'),
    });
    // The bundle, and (at the same time) the project's types as a Workers project gets them: `wrangler types`.
    const [deploying, typing] = await Promise.all([
      run(repoBin('wrangler'), ['deploy', '--dry-run', '--outdir', outdir], { cwd: dir, env, timeoutMs: 120_000 }),
      run(repoBin('wrangler'), ['types'], { cwd: dir, env, timeoutMs: 120_000 }),
    ]);
    const deployed = expectOk('wrangler deploy --dry-run', deploying);
    const typed = expectOk('wrangler types', typing);
    t.diagnostic(`wrangler deploy --dry-run ${Math.round(deployed.ms)} ms`);
    assert.match(deployed.stdout, /--dry-run: exiting now/);
    const script = (await readdir(outdir)).find((name) => name.endsWith('.js'));
    assert.ok(script !== undefined, `wrangler wrote a bundle into ${outdir}`);

    // tsc over the JavaScript entry with workerd's runtime types, checkJs, strict and skipLibCheck: false.
    const tsconfig = {
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023'],
        types: [],
        module: 'esnext',
        moduleResolution: 'bundler',
        allowJs: true,
        checkJs: true,
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
      },
      files: ['worker-configuration.d.ts', 'src/index.js'],
    };
    await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    const checked = await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: dir,
      timeoutMs: 240_000, // several tsc runs and installs share the machine
    });
    t.diagnostic(`wrangler types ${Math.round(typed.ms)} ms, tsc (checkJs, workerd types) ${Math.round(checked.ms)} ms`);
    assert.equal(checked.code, 0, `tsc reported errors:\n${checked.stdout}${checked.stderr}`);

    const mf = new Miniflare({ modules: true, modulesRoot: outdir, scriptPath: join(outdir, script), compatibilityDate: '2026-04-20' });
    try {
      const post = (path: string, body: string) =>
        mf.dispatchFetch(`http://consumer.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const good = await post('/orders', '{"sku":"A-1","quantity":2}');
      assert.equal(good.status, 200);
      assert.deepEqual(await good.json(), { accepted: { sku: 'A-1', quantity: 2 } });
      const invalid = await post('/orders', '{"sku":"A-1","quantity":0}');
      assert.equal(invalid.status, 400);
      const invalidBody = (await invalid.json()) as { error: { code: string; issues: { path: string }[] } };
      assert.equal(invalidBody.error.code, 'invalid_body');
      assert.deepEqual(
        invalidBody.error.issues.map((issue) => issue.path),
        ['$.quantity'],
      );
      const broken = await post('/orders', '{"sku":');
      assert.equal(broken.status, 400);
      assert.equal(((await broken.json()) as { error: { code: string } }).error.code, 'bad_request');
      const remote = await post('/remote', '{}');
      assert.equal(remote.status, 422);
      assert.equal(((await remote.json()) as { error: { code: string } }).error.code, 'remote_ref');
      const mounted = await post('/schemaval/v1/validate', JSON.stringify({ schema: { type: 'integer' }, instance: 'x' }));
      assert.equal(mounted.status, 200);
      assert.equal(((await mounted.json()) as { status: string }).status, 'invalid');
    } finally {
      await mf.dispose();
    }
  });
});

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
};

/** Serves `root` on 127.0.0.1 (a random port) for the browser test. */
async function serveStatic(root: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
