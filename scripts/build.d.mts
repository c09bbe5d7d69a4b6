/** Bundles the CLI into dist/cli.js, dist/node-worker.js and dist/cli-chunks/ (no tsc; about a second). */
export function buildCli(options?: { quiet?: boolean }): Promise<void>;
/** `npm run build`: all of dist/. */
export function buildAll(): Promise<void>;
