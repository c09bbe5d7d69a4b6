// Section 12i: bytes. What the demo page downloads (its host bundle and its validation worker, gzip as a CDN would
// serve them) and what the npm tarball unpacks to (`npm pack --dry-run` of dist/ as last built: a rebuild empties
// dist/ first, which other processes of a shared tree may be reading; it is built only when missing).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildPage } from '../scripts/build-page.mjs';
import { buildDist } from './build-dist.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Bytes {
  /** gzip bytes of each page asset. */
  readonly page: Readonly<Record<string, number>>;
  /** What a visit loads up front (main.js, its static chunks, worker.js), gzip. */
  readonly hostAndWorker: number;
  /** The five largest packages or source folders in what a visit loads up front (minified, before gzip). */
  readonly largest: readonly string[];
  readonly tarball?: {
    readonly packed: number;
    readonly unpacked: number;
    readonly maps: number;
    readonly files: number;
    /** When dist/ was built. */
    readonly builtAt: string;
  };
  readonly tarballError?: string;
}

const pageAssets = ['main.js', 'worker.js', 'index.html', 'styles.css'];

/** Builds the page (and dist/ if missing), then weighs both; a failed build or pack is reported, not thrown. */
export async function measureBytes(): Promise<Bytes> {
  const built = await buildPage({ quiet: true });
  const page: Record<string, number> = {};
  for (const name of new Set([...pageAssets, ...built.upFront])) page[name] = gzipSync(readFileSync(`${root}edge/public/${name}`)).length;
  // What a visit downloads before any import(): main.js, the chunks it imports, and the worker.
  let hostAndWorker = 0;
  for (const name of built.upFront) hostAndWorker += page[name] ?? 0;
  const largest = largestInputs(built);
  try {
    if (!existsSync(`${root}dist/src/index.js`)) buildDist();
    const builtAt = statSync(`${root}dist/src/index.js`).mtime.toISOString().slice(0, 16).replace('T', ' ');
    // --ignore-scripts: prepack would build again.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(out) as { size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
    if (pack === undefined) throw new Error('npm pack printed nothing');
    const maps = pack.files.filter((file) => file.path.endsWith('.map')).reduce((sum, file) => sum + file.size, 0);
    return {
      page,
      hostAndWorker,
      largest,
      tarball: { packed: pack.size, unpacked: pack.unpackedSize, maps, files: pack.files.length, builtAt },
    };
  } catch (error) {
    return { page, hostAndWorker, largest, tarballError: String(error instanceof Error ? error.message : error).split('\n')[0] };
  }
}

/** The five largest packages or source folders in what a visit loads up front, from the page build's own metafile. */
function largestInputs(built: Awaited<ReturnType<typeof buildPage>>): string[] {
  const groups = new Map<string, number>();
  for (const script of built.scripts) {
    if (!built.upFront.includes(script.name)) continue;
    for (const input of script.inputs) {
      const group = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input.path)?.[1] ?? input.path.replace(/\/[^/]*$/, '');
      groups.set(group, (groups.get(group) ?? 0) + input.bytes);
    }
  }
  return [...groups]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 5)
    .map(([group, size]) => `${group} ${kb(size)}`);
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

export function bytesLines(bytes: Bytes): string[] {
  const assets = Object.entries(bytes.page)
    .map(([name, size]) => `${name} ${kb(size)}`)
    .join(', ');
  return [
    `page as scripts/build-page.mjs builds it (minified; the v1 and v2 clients, zod and re2js chunks loaded on demand), gzip: ${assets}; host + worker ${kb(bytes.hostAndWorker)}`,
    `  largest inputs of what a visit loads up front (minified, raw): ${bytes.largest.join(', ')}`,
    bytes.tarball
      ? `tarball: ${mb(bytes.tarball.packed)} packed, ${mb(bytes.tarball.unpacked)} unpacked, ${bytes.tarball.files} files, ` +
        `of which source maps ${mb(bytes.tarball.maps)} (dist/ built ${bytes.tarball.builtAt} UTC)`
      : `tarball: not measured (${bytes.tarballError})`,
  ];
}
