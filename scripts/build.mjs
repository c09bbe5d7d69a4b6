// `npm run build`: dist/ as published (docs/decisions/012-build-and-package.md).
//   1. tsc (tsconfig.build.json, edge/tsconfig.build.json): the library as ES2022 ESM + .d.ts under dist/src/… and
//      dist/edge/src/…, one file per source file, `.ts` specifiers rewritten to `.js`.
//   2. esbuild, where one self-contained file is needed:
//      dist/src/host/worker.js   the browser module worker (`schemaval/worker`, `schemaval/worker/browser`), once:
//                                the file `new URL('./worker.js', import.meta.url)` finds next to the browser host;
//      dist/cli.js, dist/node-worker.js, dist/cli-chunks/  the CLI and its worker_threads worker, for a fast start.
// No source maps (issue #21: they were 7 MB of the 11 MB tarball): tsc's JavaScript reads like its sources, the CLI
// is not minified, and maps of the minified worker would point at sources the package does not ship.
// `node scripts/build.mjs --cli` builds step 2's CLI files alone (what test/cli/cli-bin.test.ts needs, in ~0.2 s).
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * The browser worker: every import bundled, so a page can start it from any URL. One file, beside the compiled
 * browser host that finds it by default; the `schemaval/worker` subpaths point at the same file.
 */
async function buildBrowserWorker() {
  await build({
    absWorkingDir: root,
    entryPoints: ['src/worker/browser-entry.ts'],
    outfile: 'dist/src/host/worker.js',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  // A module worker exports nothing; the declaration lets a strict consumer import the subpath (e.g. `?url`).
  await writeFile(
    join(dist, 'src/host/worker.d.ts'),
    '// The browser module worker script: start it with new Worker(url, { type: "module" }).\nexport {};\n',
  );
}

/**
 * The CLI (bin/schemaval.js imports dist/cli.js) and the worker it starts (dist/node-worker.js), bundled with
 * code splitting: what the commands load lazily (host, engine, SDK types) sits in dist/cli-chunks/, shared by both
 * entries, so `--help` and `--version` read one small file.
 */
export async function buildCli({ quiet = true } = {}) {
  const started = performance.now();
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await rm(join(dist, 'cli-chunks'), { recursive: true, force: true });
  const entry = 'schemaval-cli-entry';
  const result = await build({
    absWorkingDir: root,
    entryPoints: { cli: entry, 'node-worker': 'src/worker/node-entry.ts' },
    outdir: 'dist',
    entryNames: '[name]',
    chunkNames: 'cli-chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Some bundled dependencies are CommonJS and call `require` for Node built-ins.
    banner: {
      js: "import { createRequire as __schemavalRequire } from 'node:module';\nconst require = __schemavalRequire(import.meta.url);",
    },
    // spawn-node-worker.ts lands in a chunk (checked below): the worker entry is one folder up from it.
    define: { __SCHEMAVAL_VERSION__: JSON.stringify(version), __SCHEMAVAL_NODE_WORKER__: JSON.stringify('../node-worker.js') },
    plugins: [
      {
        name: 'cli-entry',
        setup(plugin) {
          plugin.onResolve({ filter: new RegExp(`^${entry}$`) }, () => ({ path: entry, namespace: entry }));
          plugin.onLoad({ filter: /.*/, namespace: entry }, () => ({
            contents: "export { main } from './src/cli/main.ts';\nexport { nodeIo } from './src/cli/node-io.ts';\n",
            resolveDir: root,
            loader: 'ts',
          }));
        },
      },
    ],
  });
  const home = Object.entries(result.metafile.outputs).find(([, output]) => 'src/host/spawn-node-worker.ts' in output.inputs)?.[0];
  if (home === undefined || !home.startsWith('dist/cli-chunks/')) {
    throw new Error(`spawn-node-worker.ts was bundled into ${home}, not dist/cli-chunks/: fix __SCHEMAVAL_NODE_WORKER__`);
  }
  if (!quiet) console.log(`cli built into dist/cli.js in ${Math.round(performance.now() - started)} ms`);
}

function runTsc(project) {
  // Maps off here rather than in the tsconfigs: they point at src/, which the package does not ship.
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--sourceMap', 'false', '--declarationMap', 'false'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc -p ${project} failed`);
}

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * tsc rewrites `.ts` specifiers in emitted JavaScript but not in declarations; a consumer's TypeScript
 * (`nodenext`, no `allowImportingTsExtensions`) needs `.js` there too.
 */
async function rewriteDeclarationSpecifiers() {
  for await (const path of files(dist)) {
    if (!path.endsWith('.d.ts')) continue;
    const text = await readFile(path, 'utf8');
    const rewritten = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
    if (rewritten !== text) await writeFile(path, rewritten);
  }
}

/** Relative imports of an emitted module. */
const relativeImports = (text) => [...text.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);

/**
 * The edge program also emits what its workerd types pull in (edge/src/index.ts, the gateway): keep only what
 * dist/edge/src/lib.js reaches, the `schemaval/edge` library.
 */
async function pruneEdge() {
  const edge = join(dist, 'edge', 'src');
  const keep = new Set();
  const visit = async (base) => {
    if (keep.has(base) || !base.startsWith(edge)) return;
    keep.add(base);
    for (const ext of ['.js', '.d.ts']) {
      const text = await readFile(base + ext, 'utf8');
      for (const spec of relativeImports(text)) await visit(join(base, '..', spec).replace(/\.js$/, ''));
    }
  };
  await visit(join(edge, 'lib'));
  for await (const path of files(edge)) {
    if (!keep.has(path.replace(/\.(js|d\.ts)(\.map)?$/, ''))) await rm(path);
  }
}

export async function buildAll() {
  const started = performance.now();
  await rm(dist, { recursive: true, force: true });
  try {
    runTsc('tsconfig.build.json');
    runTsc('edge/tsconfig.build.json');
    await rewriteDeclarationSpecifiers();
    await pruneEdge();
    await buildBrowserWorker();
    await buildCli();
  } catch (error) {
    // A half-built dist/ (the library compiled, the edge not) would pass for a build with everyone who checks that
    // dist/src/index.js exists (the bench, the consumer tests): none is better than an incomplete one.
    await rm(dist, { recursive: true, force: true });
    throw error;
  }
  console.log(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { scriptArgs } = await import('./script-args.mjs');
  const { values } = scriptArgs({
    command: 'node scripts/build.mjs',
    usage: `usage: node scripts/build.mjs [--cli]   (npm run build runs it after scripts/edge-types.mjs)
  (none)      all of dist/: tsc for the library and its declarations, esbuild for the workers and the CLI
  --cli       the CLI files alone (dist/cli.js, dist/node-worker.js, dist/cli-chunks/), in about a second
  -h, --help  this help`,
    options: { cli: { type: 'boolean', default: false } },
  });
  if (values.cli) await buildCli({ quiet: false });
  else await buildAll();
}
