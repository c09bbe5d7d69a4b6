// What a page ships: esbuild options for a minified browser bundle, and the inputs that reached its output.
import type { BuildOptions, Metafile } from 'esbuild';

/** A page's main-thread bundle as a page ships it: ESM for the browser condition, minified, with a metafile. */
export const browserPageBuild = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  conditions: ['browser'],
  target: 'es2022',
  minify: true,
  metafile: true,
  logLevel: 'silent',
} as const satisfies BuildOptions;

/**
 * What compiles and validates schemas, in the sources (`.ts`) or the installed package (`.js`): none of it belongs on
 * a page's main thread. The adapter's id (one string constant, part of the host's verdict cache key) is not such code.
 */
export const engineOnMainThread =
  /src\/engine\/(?:[\w-]+\/)?(create-engine|compile-schema|validate-instance|check-schema|linear-pattern|translate-pattern|character-reader|re2-ranges|pattern-limits|translated-pattern|lookaround|pattern-program|check-patterns|translate-property|lookaround-tree|lookaround-parser|lookaround-bounds|lookahead-fold|code-point-sets)\.[jt]s$|src\/engine\/adapters\/(?!cfworker\/adapter-id\.[jt]s$)|node_modules\/(re2js|@cfworker\/json-schema)\//;

/**
 * The inputs that put bytes into the (single) output. `metafile.inputs` lists every file the resolver reached,
 * tree-shaken or not; the output's own inputs say what shipped.
 */
export function shippedInputs(metafile: Metafile): string[] {
  return Object.entries(Object.values(metafile.outputs)[0]?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input);
}
