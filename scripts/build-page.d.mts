export interface PageScript {
  readonly name: string;
  readonly bytes: number;
  /** The source files that put bytes into it, and how many (minified, before gzip). */
  readonly inputs: readonly { readonly path: string; readonly bytes: number }[];
  /** Scripts it imports statically, and those it loads on demand (`import()`). */
  readonly imports: readonly string[];
  readonly lazy: readonly string[];
}

/** Bundles the demo page and the validation Web Worker into `out` (default edge/public), and says what it built. */
export function buildPage(options?: { quiet?: boolean; out?: string }): Promise<{
  readonly out: string;
  readonly scripts: readonly PageScript[];
  /** What a visit downloads before any `import()`: main.js, the worker, and what they import. */
  readonly upFront: readonly string[];
}>;
