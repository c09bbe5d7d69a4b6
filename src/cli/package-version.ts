import { readFileSync } from 'node:fs';

/** Set by the CLI bundle's build (esbuild `define`); absent when running from sources or tsc's output. */
declare const __SCHEMAVAL_VERSION__: string | undefined;

/**
 * The package's version: the build-time constant when the bundle has one, else `version` of the nearest
 * package.json named "schemaval" above this module (src/cli/, dist/src/cli/ and dist/ all find the package root).
 */
export function packageVersion(): string {
  if (typeof __SCHEMAVAL_VERSION__ === 'string') return __SCHEMAVAL_VERSION__;
  let url = new URL('./package.json', import.meta.url);
  for (let previous = ''; url.href !== previous; previous = url.href, url = new URL('../package.json', url)) {
    const manifest = readManifest(url);
    if (manifest?.name === 'schemaval' && typeof manifest.version === 'string') return manifest.version;
  }
  return 'unknown';
}

function readManifest(url: URL): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
