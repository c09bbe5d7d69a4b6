import { type FetchedTools, fetchTools } from './fetch-tools.ts';
import type { Progress } from './progress.ts';
import type { ServerArgs } from './server-args.ts';

/** How long `lint --url` / `--stdio` (and `validate --url` / `--stdio`) waits for the server by default. */
export const defaultTimeoutMs = 10_000;

/** A server's tools as sent, through the MCP SDK (this module loads it), saying so on `progress`. */
export async function listServerTools(server: ServerArgs, progress: Progress): Promise<FetchedTools> {
  const { source } = server;
  progress.connecting(source.kind === 'url' ? source.url.href : `server command ${JSON.stringify(source.line)}`);
  const timeouts = { timeoutMs: server.timeoutMs ?? defaultTimeoutMs, onPage: progress.page };
  return await fetchTools(
    source,
    server.requestTimeoutMs === undefined ? timeouts : { ...timeouts, requestTimeoutMs: server.requestTimeoutMs },
  );
}
