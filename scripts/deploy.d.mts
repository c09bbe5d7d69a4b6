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
