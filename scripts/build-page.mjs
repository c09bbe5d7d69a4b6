// Bundles the demo page (src/ui) and the validation Web Worker (src/worker/browser-entry.ts) into edge/public,
// the edge's static assets.
import { cp, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}edge/public`;

export async function buildPage({ quiet = false } = {}) {
  const started = performance.now();
  await mkdir(out, { recursive: true });
  await build({
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
  });
  await cp(`${root}src/ui/index.html`, `${out}/index.html`);
  await cp(`${root}src/ui/styles.css`, `${out}/styles.css`);
  if (!quiet) console.log(`page built into edge/public in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await buildPage();
