// dist/ for the sections that need it (the compiled engine, the tarball), built by the project's own build task
// (`npm run build`: the edge's generated Worker types, then scripts/build.mjs), so the bench never builds it another way.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function buildDist(): void {
  execFileSync(process.execPath, ['scripts/task.mjs', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
