/** Reads SCHEMAVAL_PAGE: unset, empty or `on` publish the demo page; `off` does not; anything else throws. */
export function pageEnabled(value: string | undefined): boolean;

/** What a deploy run does: whether it builds the page, which config wrangler reads, and wrangler's arguments. */
export function deployPlan(options?: { env?: Record<string, string | undefined>; args?: readonly string[] }): {
  page: boolean;
  config: string;
  wranglerArgs: string[];
  dryRun: boolean;
};

/** The Worker's configuration without static assets, `main` made absolute against `configDir`. */
export function withoutAssets(rawConfig: Record<string, unknown> & { main: string }, configDir: string): Record<string, unknown>;

/** Builds what is needed and runs `wrangler deploy` from edge/; resolves with wrangler's exit code. */
export function deploy(options?: { env?: Record<string, string | undefined>; args?: readonly string[] }): Promise<number>;

/** `npm run deploy -- --help`. */
export const usage: string;

/** The options `wrangler deploy` takes, aliases included; anything else is refused before the page is built. */
export const wranglerDeployOptions: readonly string[];

/** What deploy's arguments ask: its help, a one-line mistake (an option wrangler does not take), or a run. */
export function readDeployArgs(
  args: readonly string[],
): { readonly kind: 'help' } | { readonly kind: 'error'; readonly message: string } | { readonly kind: 'run' };

/** The arguments with the paths of wrangler's path options made absolute against `base` (npm's INIT_CWD). */
export function fromUserDir(args: readonly string[], base: string): string[];
