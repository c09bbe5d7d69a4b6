// The package as its users get it (issue #11 item 8): `npm pack`, the tarball installed into a scratch project
// outside the repository, then used there by a plain Node host, strict TypeScript consumers, an esbuild page in
// Chromium and a Workers project. Run with `npm run test:consumer`; see docs/consumers.md.
import assert from 'node:assert/strict';
import { access, copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/** Scripts a worker runs, not modules a program imports (importing one would start a worker's message loop). */
const workerSubpaths = ['./worker', './worker/browser', './worker/node'];

/** Every `schemaval/…` entry README.md, CHANGELOG.md and docs/ name (not github.com/schemaval/schemaval). */
async function documentedSubpaths(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const docs = (await readdir(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })).filter((f) => f.endsWith('.md'));
  for (const file of ['README.md', 'CHANGELOG.md', ...docs.map((f) => `docs/${f}`)]) {
    const text = await readFile(join(repoRoot, file), 'utf8');
    for (const match of text.matchAll(/(?<![\w./-])schemaval(?:\/[a-z][\w/-]*)?/g)) {
      const subpath = `.${match[0].slice('schemaval'.length).replace(/\/+$/, '')}`;
      if (!found.has(subpath)) found.set(subpath, file);
    }
  }
  return found;
}

/** The tarball's bound (issue #21 item 7): 4 MB unpacked. */
const maxUnpackedBytes = 4_000_000;

describe('the installed package', { concurrency: true }, () => {
  it('installs from the tarball, every export target exists, and no TypeScript loader comes along', async (t) => {
    t.diagnostic(`scratch project: ${scratch.dir}`);
    t.diagnostic(
      `npm pack ${Math.round(scratch.timings.pack ?? 0)} ms, npm install (${scratch.install}) ${Math.round(scratch.timings.install ?? 0)} ms`,
    );
    const targets = Object.entries(scratch.manifest.exports).flatMap(([subpath, value]) =>
      exportTargets(value).map((entry) => ({ subpath, ...entry })),
    );
    for (const subpath of ['.', './engine', './protocol', './host', './host/browser', './host/inline', ...workerSubpaths, './edge']) {
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
        "import { createEngine, type Engine, type RefusalCode, refusalCodes, type ToolVerdict } from 'schemaval/engine';",
        "import { createInlineValidator, createValidator, type Validator, withSchemaValidation } from 'schemaval/host';",
        "import type { ValidationOutcome } from 'schemaval/protocol';",
        '',
        `export const entries = [${subpaths.map((_, i) => `entry${i}`).join(', ')}];`,
        'const engine: Engine = createEngine();',
        "export const outcome: ValidationOutcome = engine.validate({ type: 'string' }, 'x');",
        'export const validator: Validator = createValidator({ timeBudgetMs: 250 });',
        "export const client: Client = withSchemaValidation(new Client({ name: 'host', version: '1.0.0' }), { validator });",
        'export const inline: Validator = createInlineValidator({ timeBudgetMs: 250 });',
        "export const verdicts: readonly ToolVerdict[] = engine.compileTools([{ name: 't', inputSchema: { type: 'object' } }]);",
        "export const remote: RefusalCode | undefined = refusalCodes.find((code) => code === 'remote_ref');",
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
      entryPoints: { page: join(pageDir, 'page.mjs'), worker: 'schemaval/worker/browser' },
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
      const { port } = server.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
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
        missingWorker: { code: string; message: string };
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
      // A worker script the server does not have: the first call says which URL and where the recipe is.
      t.diagnostic(`missing worker: ${result.missingWorker.message}`);
      assert.equal(result.missingWorker.code, 'WORKER_CRASHED');
      assert.ok(
        result.missingWorker.message.includes(`http://127.0.0.1:${port}/no-such-worker.js did not load`),
        result.missingWorker.message,
      );
      assert.ok(result.missingWorker.message.endsWith('docs/host.md#bundling-the-worker)'), result.missingWorker.message);
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

// After the concurrent checks above, one at a time: less for the machine to juggle while tsc and wrangler run.
describe('the installed package, entry by entry', () => {
  it('exports every entry README.md, CHANGELOG.md and docs/ name', async (t) => {
    const documented = await documentedSubpaths();
    t.diagnostic(`documented: ${[...documented.keys()].join(', ')}`);
    for (const subpath of ['.', './engine', './host', './worker/browser', './worker/node'])
      assert.ok(documented.has(subpath), `the docs name ${specifier(subpath)}`);
    for (const [subpath, file] of documented)
      assert.ok(subpath in scratch.manifest.exports, `${file} names ${specifier(subpath)}, which the package does not export`);
  });

  it(`the tarball is at most ${maxUnpackedBytes / 1e6} MB unpacked: no source maps, no screenshots, one browser worker`, async (t) => {
    const { size, unpackedSize, files } = scratch.packed;
    t.diagnostic(`npm pack: ${(size / 1e6).toFixed(2)} MB packed, ${(unpackedSize / 1e6).toFixed(2)} MB unpacked, ${files.length} files`);
    assert.ok(unpackedSize <= maxUnpackedBytes, `${unpackedSize} bytes unpacked, over ${maxUnpackedBytes}`);
    assert.deepEqual(
      files.filter((file) => file.path.endsWith('.map')).map((file) => file.path),
      [],
      'no source maps',
    );
    assert.deepEqual(
      files.filter((file) => file.path.startsWith('docs/images/')).map((file) => file.path),
      [],
      'no screenshots (the README on npm shows them from the repository)',
    );
    // The worker is the largest file the library ships: once, where the browser host finds it by default.
    const workerTarget = (subpath: string) =>
      exportTargets(scratch.manifest.exports[subpath]).find((e) => e.conditions.at(-1) === 'default')?.target;
    assert.equal(workerTarget('./worker'), './dist/src/host/worker.js');
    assert.equal(workerTarget('./worker/browser'), './dist/src/host/worker.js');
    const workerBytes = await readFile(join(scratch.packageDir, 'dist/src/host/worker.js'));
    const sameSize = files.filter((file) => file.size === workerBytes.length).map((file) => file.path);
    assert.deepEqual(sameSize, ['dist/src/host/worker.js'], 'no second copy of the browser worker');
  });

  it('plain Node imports every module entry, and every worker entry resolves to a file in the package', async () => {
    const modules = moduleSubpaths(scratch.manifest).filter((subpath) => !workerSubpaths.includes(subpath));
    const script = [
      'const report = {};',
      ...modules.map((subpath) => `report[${JSON.stringify(subpath)}] = Object.keys(await import('${specifier(subpath)}')).length;`),
      ...workerSubpaths.map((subpath) => `report[${JSON.stringify(subpath)}] = import.meta.resolve('${specifier(subpath)}');`),
      "const { refusalCodes, createEngine } = await import('schemaval/engine');",
      "report.refusalCodes = refusalCodes.includes('remote_ref') && typeof createEngine;",
      'console.log(JSON.stringify(report));',
      '',
    ];
    const dir = join(scratch.dir, 'entries');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'entries.mjs'), script.join('\n'));
    const ran = expectOk('node entries.mjs', await run(process.execPath, ['entries.mjs'], { cwd: dir, timeoutMs: 60_000 }));
    const report = JSON.parse(ran.stdout.trim()) as Record<string, unknown>;
    for (const subpath of modules) assert.ok(Number(report[subpath]) > 0, `${specifier(subpath)} has exports at run time`);
    for (const subpath of workerSubpaths) {
      const url = String(report[subpath]);
      assert.ok(url.startsWith(pathToFileURL(scratch.packageDir).href), `${specifier(subpath)} → ${url} is in the package`);
      assert.ok(await exists(fileURLToPath(url)), `${url} exists`);
    }
    assert.equal(report.refusalCodes, 'function', 'schemaval/engine exports refusalCodes (with remote_ref) beside createEngine');
  });

  it('a Node host bundled by esbuild starts its own bundle of schemaval/worker/node, and without it names the missing file', async (t) => {
    const dir = join(scratch.dir, 'bundled-host');
    await mkdir(dir, { recursive: true });
    // The recipe of docs/host.md#bundling-the-worker, and the mistake it answers (no entry: the default path).
    const host = (spawn: string) =>
      [
        "import { createValidator, spawnNodeWorker } from 'schemaval/host';",
        `const validator = createValidator(${spawn});`,
        "const outcome = await validator.validate({ type: 'integer', minimum: 1 }, 0).then(",
        '  (answer) => ({ status: answer.status }),',
        '  (error) => ({ code: error.code, message: error.message }),',
        ');',
        'await validator.close();',
        'console.log(JSON.stringify(outcome));',
        '',
      ].join('\n');
    await writeFile(join(dir, 'host.mjs'), host("{ spawn: spawnNodeWorker({ entry: new URL('./worker.js', import.meta.url) }) }"));
    await writeFile(join(dir, 'default-host.mjs'), host(''));
    // Bundled, then run from a folder with no node_modules anywhere above it: the bundle is all it has.
    const deployed = await mkdtemp(join(tmpdir(), 'schemaval-bundled-host-'));
    try {
      const built = await build({
        absWorkingDir: scratch.dir,
        entryPoints: { host: join(dir, 'host.mjs'), 'default-host': join(dir, 'default-host.mjs'), worker: 'schemaval/worker/node' },
        outdir: deployed,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        metafile: true,
        logLevel: 'silent',
      });
      assert.ok(Object.keys(built.metafile.inputs).some((input) => input.includes('node_modules/schemaval/dist/src/worker/node-entry.js')));
      await writeFile(join(deployed, 'package.json'), '{ "type": "module" }\n');
      const ran = expectOk('node host.js', await run(process.execPath, ['host.js'], { cwd: deployed, timeoutMs: 60_000 }));
      assert.deepEqual(JSON.parse(ran.stdout.trim()), { status: 'invalid' });
      const lost = expectOk('node default-host.js', await run(process.execPath, ['default-host.js'], { cwd: deployed, timeoutMs: 60_000 }));
      const failure = JSON.parse(lost.stdout.trim()) as { code: string; message: string };
      t.diagnostic(failure.message);
      assert.equal(failure.code, 'WORKER_CRASHED');
      assert.match(failure.message, /^the validation worker could not start \(worker error: Cannot find module '.*node-entry\.js'; /);
      // The default is a path relative to the host module, which the bundle moved: one folder above it, here.
      assert.ok(failure.message.includes(join(deployed, '..', 'worker', 'node-entry.js')), 'it names the path the host looked at');
      assert.ok(failure.message.includes('docs/host.md#bundling-the-worker'), 'it links the recipe');
    } finally {
      await rm(deployed, { recursive: true, force: true });
    }
  });
});

describe('a fresh clone', () => {
  it("runs README.md's CLI commands and `npm run tour`'s after `npm install`, with no build", async (t) => {
    const clone = await mkdtemp(join(tmpdir(), 'schemaval-clone-'));
    try {
      // The working tree's tracked files and no dist/, with node_modules as `npm install` leaves it. bin/ is copied:
      // Node resolves a symlinked script to its real path, which would find the repository's own dist/.
      const tracked = expectOk('git ls-files', await run('git', ['ls-files', '-z'], { cwd: repoRoot })).stdout.split('\0');
      for (const name of new Set([...tracked.filter(Boolean).map((file) => file.split('/')[0] ?? ''), 'node_modules'])) {
        if (name === 'bin') await cp(join(repoRoot, name), join(clone, name), { recursive: true });
        else await symlink(join(repoRoot, name), join(clone, name));
      }
      assert.equal(await exists(join(clone, 'dist')), false, 'no dist/ in the clone');
      const shell = (line: string) => run('sh', ['-c', line], { cwd: clone, timeoutMs: 120_000 });

      const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
      const documented = consoleCommands(readme).filter((entry) => entry.command.includes('npx schemaval'));
      assert.ok(documented.length >= 2, `README.md shows ${documented.length} schemaval commands`);
      for (const { command, output } of documented) {
        const result = await shell(command);
        t.diagnostic(`${command} → exit ${result.code} in ${Math.round(result.ms)} ms`);
        assert.ok(result.code === 0 || result.code === 1, `${command} exited ${result.code}:\n${result.stderr}`);
        for (const line of output) assert.ok(result.stdout.split('\n').includes(line), `${command} prints ${line}:\n${result.stdout}`);
      }

      const tour = expectOk('npm run tour', await shell('npm run -s tour'));
      const shown = [...tour.stdout.matchAll(/^\$ (npx schemaval .*)\n([\s\S]*?)^\(exit (\d+)\)$/gm)];
      assert.ok(shown.length >= 3, `the tour shows ${shown.length} commands`);
      for (const [, command = '', printed = '', code] of shown) {
        const result = await shell(command);
        assert.equal(result.code, Number(code), `${command} exits as the tour says:\n${result.stderr}`);
        assert.ok(printed.includes(result.stdout), `${command} prints what the tour printed:\n${result.stdout}`);
      }
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  });
});

/** The `$ command` lines of a Markdown file's console blocks, each with the output lines shown under it (not `…`). */
function consoleCommands(markdown: string): { command: string; output: string[] }[] {
  const entries: { command: string; output: string[] }[] = [];
  for (const [, block = ''] of markdown.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    for (const line of block.split('\n')) {
      if (line.startsWith('$ ')) entries.push({ command: line.slice(2).replace(/\s{2,}#.*$/, ''), output: [] });
      else if (line.trim() !== '' && line !== '…') entries.at(-1)?.output.push(line);
    }
  }
  return entries;
}

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
