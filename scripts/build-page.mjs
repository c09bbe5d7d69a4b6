// Bundles the demo page (src/ui) and the validation Web Worker (src/worker/browser-entry.ts) into edge/public,
// the edge's static assets. Files are written only when their bytes change (atomically): `wrangler dev` reloads the
// Worker on any change under edge/public, cutting its in-flight requests, and every wrangler test builds the page.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}edge/public`;

export async function buildPage({ quiet = false } = {}) {
  const started = performance.now();
  await mkdir(out, { recursive: true });
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/ui/main.ts', worker: 'src/worker/browser-entry.ts' },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    sourcemap: true,
    minify: false,
    logLevel: 'warning',
    write: false,
  });
  const files = [
    ...outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    ...['index.html', 'styles.css'].map((name) => ({ path: `${out}/${name}`, source: `${root}src/ui/${name}` })),
  ];
  for (const file of files) {
    const contents = file.contents ?? (await readFile(file.source));
    const existing = await readFile(file.path).catch(() => undefined);
    if (existing?.equals(contents)) continue;
    const temporary = `${out}/.${basename(file.path)}.${process.pid}.tmp`;
    await writeFile(temporary, contents);
    await rename(temporary, file.path);
  }
  if (!quiet) console.log(`page built into edge/public in ${Math.round(performance.now() - started)} ms`);
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
