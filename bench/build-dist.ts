// dist/ for the sections that need it (the compiled engine, the tarball), built as `npm run build` builds it: the
// edge's generated Worker types first (git-ignored, so a fresh checkout has none and tsc on edge/ fails without them).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildAll } from '../scripts/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildDist(): Promise<void> {
  console.log('   building dist/ (npm run build) ...');
  execFileSync(process.execPath, ['scripts/edge-types.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  await buildAll();
}
