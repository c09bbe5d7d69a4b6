// Bundles the demo page (src/ui) and the validation Web Worker (src/worker/browser-entry.ts) into edge/public,
// the edge's static assets. Files are written only when their bytes change (atomically): `wrangler dev` reloads the
// Worker on any change under edge/public, cutting its in-flight requests, and every wrangler test builds the page.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const publicDir = `${root}edge/public`;

/**
 * Builds the page into `out` (edge/public) and says what it holds: each script's bytes and gzip size, which the page
 * loads up front (`main.js` and what it imports, and the worker), and which only on demand.
 */
export async function buildPage({ quiet = false, out = publicDir } = {}) {
  const started = performance.now();
  await mkdir(out, { recursive: true });
  const common = {
    absWorkingDir: root,
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    sourcemap: true,
    // Minified: 399 KB of gzip for host and worker unminified, 269 KB minified (issue 21); maps keep it debuggable.
    minify: true,
    logLevel: 'warning',
    write: false,
    metafile: true,
  };
  // Two builds: split together, the worker's engine would land in a chunk the page imports as well.
  const [page, worker] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: 'src/ui/main.ts' },
      // Code only a 2026-07-28 server needs (the v2 SDK client) is its own chunk, loaded on first use (src/ui/connect.ts).
      splitting: true,
      chunkNames: 'chunk-[name]-[hash]',
      alias: { ajv: './scripts/page-stubs/ajv.mjs', 'ajv-formats': './scripts/page-stubs/ajv-formats.mjs' },
    }),
    // re2js (57% of the engine) is a chunk the worker imports when a request has a pattern (src/worker/page-entry.ts).
    build({
      ...common,
      entryPoints: { worker: 'src/worker/page-entry.ts' },
      splitting: true,
      chunkNames: 'chunk-worker-[name]-[hash]',
      plugins: [withoutBundledRe2],
    }),
  ]);
  const outputFiles = [...page.outputFiles, ...worker.outputFiles];
  const files = [
    ...outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    ...['index.html', 'styles.css'].map((name) => ({ path: `${out}/${name}`, source: `${root}src/ui/${name}` })),
  ];
  // Chunks carry their hash in their name: those of an earlier build are removed, so the folder holds one build.
  const written = new Set(files.map((file) => basename(file.path)));
  for (const name of await readdir(out)) {
    if (name.startsWith('chunk-') && !written.has(name)) await rm(`${out}/${name}`, { force: true });
  }
  for (const file of files) {
    const contents = file.contents ?? (await readFile(file.source));
    const existing = await readFile(file.path).catch(() => undefined);
    if (existing?.equals(contents)) continue;
    const temporary = `${out}/.${basename(file.path)}.${process.pid}.tmp`;
    await writeFile(temporary, contents);
    await rename(temporary, file.path);
  }
  if (!quiet) console.log(`page built into ${relative(root, out)} in ${Math.round(performance.now() - started)} ms`);
  return describeScripts(page.metafile, worker.metafile, out);
}

/**
 * The page's worker links no re2js into the engine: src/engine/patterns/bundled-re2.ts becomes an empty module, and
 * the worker provides re2js from its own chunk once loaded (src/engine/patterns/index.ts). Until then the engine
 * fails any request that needs it (`LINEAR_PATTERNS_UNAVAILABLE`), never checking a pattern another way.
 */
const withoutBundledRe2 = {
  name: 'without-bundled-re2',
  setup(context) {
    context.onResolve({ filter: /\/bundled-re2\.ts$/ }, () => ({ path: 'bundled-re2', namespace: 'without-re2' }));
    context.onLoad({ filter: /.*/, namespace: 'without-re2' }, () => ({ contents: 'export const bundledRe2 = undefined;', loader: 'js' }));
  },
};

/** The scripts of a build, from its metafiles: what each holds, and which load up front or on demand. */
function describeScripts(pageMeta, workerMeta, out) {
  const outputs = { ...pageMeta.outputs, ...workerMeta.outputs };
  const name = (path) => basename(path);
  const scripts = Object.entries(outputs)
    .filter(([path]) => path.endsWith('.js'))
    .map(([path, output]) => ({
      name: name(path),
      bytes: output.bytes,
      inputs: Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path, input]) => ({ path, bytes: input.bytesInOutput })),
      imports: output.imports.filter((i) => i.kind === 'import-statement').map((i) => name(i.path)),
      lazy: output.imports.filter((i) => i.kind === 'dynamic-import').map((i) => name(i.path)),
    }));
  const byName = new Map(scripts.map((script) => [script.name, script]));
  const upFront = new Set();
  const visit = (file) => {
    if (upFront.has(file)) return;
    upFront.add(file);
    for (const next of byName.get(file)?.imports ?? []) visit(next);
  };
  visit('main.js');
  visit('worker.js');
  return { out, scripts, upFront: [...upFront] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { scriptArgs } = await import('./script-args.mjs');
  scriptArgs({
    command: 'npm run build:page',
    usage: `usage: npm run build:page   (node scripts/build-page.mjs; npm start and npm run edge run it too)
  Bundles the demo page and the validation Web Worker into edge/public; unchanged files are left alone.
  -h, --help  this help`,
    options: {},
  });
  await buildPage();
}
