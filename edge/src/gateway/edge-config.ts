import { positiveIntegerText } from '../../../src/engine/numbers/index.ts';
import { type AllowedUpstream, allowedUpstream } from '../upstream/upstream-allow-list.ts';

/** What `/mcp` does when `structuredContent` does not match the tool's `outputSchema` (docs/architecture.md#host-adapter). */
export type OutputPolicy = 'warn' | 'enforce' | 'off';

/** The Worker's `vars` (wrangler.jsonc), as plain strings. */
export interface EdgeVars {
  readonly UPSTREAM_MCP_URL?: string;
  readonly ALLOWED_UPSTREAMS?: string;
  readonly CORS_ORIGINS?: string;
  readonly OUTPUT_POLICY?: string;
  readonly UPSTREAM_TIMEOUT_MS?: string;
  readonly UPSTREAM_MAX_BYTES?: string;
  /** A Worker secret (`wrangler secret put REQUEST_STATE_SECRET`), not a plain var. */
  readonly REQUEST_STATE_SECRET?: string;
  /** A Worker secret (`wrangler secret put SESSION_SECRET`): the key that seals the `Mcp-Session-Id`s `/mcp` hands out. */
  readonly SESSION_SECRET?: string;
}

/** The vars, checked and parsed. */
export interface EdgeConfig {
  /** The upstream `/mcp` forwards to when a request names none; `null` when not configured. */
  readonly upstreamMcpUrl: string | null;
  /** Further upstreams a request may name (`/mcp?upstream=URL`): origins or exact endpoint URLs. Never a wildcard. */
  readonly allowedUpstreams: readonly AllowedUpstream[];
  /** Origins (`scheme://host[:port]`) or `*`. */
  readonly corsOrigins: readonly string[];
  readonly outputPolicy: OutputPolicy;
  /** Longest wait for the upstream's headers, and for each read while an answer is due (default 30 s). */
  readonly upstreamTimeoutMs: number;
  /** Largest upstream JSON body, SSE event or SSE stream (default 4 MiB, `defaultUpstreamMaxBytes`). */
  readonly upstreamMaxBytes: number;
  /** HMAC key of the MRTR requestState envelope; null: a random key per isolate (dev only: envelopes do not cross isolates). */
  readonly requestStateSecret: string | null;
  /** HMAC key of the sealed session ids; null: a random key per isolate (sessions end with the isolate). */
  readonly sessionSecret: string | null;
}

/** A var that cannot be honoured; the Worker answers 500 `misconfigured` rather than guess. */
export class EdgeConfigError extends Error {
  override readonly name = 'EdgeConfigError';
  readonly code = 'MISCONFIGURED';
}

/**
 * The default `UPSTREAM_MAX_BYTES`: 4 MiB. A real server's whole `tools/list` is far smaller (80 servers' 1,728 tools
 * are ~2.2 MiB together; the largest real schema ~230 KiB), and every upstream byte read costs the isolate its text,
 * its parsed form, the definitions stored and the answer re-serialised (docs/edge.md, "Memory budget"). The same as
 * the client's message bound. At 16 MiB one forged session's 11.6 MB list took 1.7-3.4 s of CPU in workerd (issue 17).
 */
export const defaultUpstreamMaxBytes = 4 * 1024 * 1024;

const outputPolicies: readonly string[] = ['warn', 'enforce', 'off'] satisfies OutputPolicy[];

/** Parses the vars; throws `EdgeConfigError` for a value that would silently weaken enforcement if guessed at. */
export function readEdgeConfig(vars: EdgeVars): EdgeConfig {
  const outputPolicy = (vars.OUTPUT_POLICY ?? '').trim() || 'warn';
  if (!outputPolicies.includes(outputPolicy)) {
    throw new EdgeConfigError(`OUTPUT_POLICY must be warn, enforce or off, got ${JSON.stringify(vars.OUTPUT_POLICY)}`);
  }
  return {
    upstreamMcpUrl: upstreamUrl(vars.UPSTREAM_MCP_URL ?? ''),
    allowedUpstreams: list(vars.ALLOWED_UPSTREAMS).map(allowed),
    corsOrigins: list(vars.CORS_ORIGINS).map(origin),
    outputPolicy: outputPolicy as OutputPolicy,
    upstreamTimeoutMs: positiveInteger('UPSTREAM_TIMEOUT_MS', vars.UPSTREAM_TIMEOUT_MS, 30_000),
    upstreamMaxBytes: positiveInteger('UPSTREAM_MAX_BYTES', vars.UPSTREAM_MAX_BYTES, defaultUpstreamMaxBytes),
    requestStateSecret: secret('REQUEST_STATE_SECRET', vars.REQUEST_STATE_SECRET),
    sessionSecret: secret('SESSION_SECRET', vars.SESSION_SECRET),
  };
}

/** A positive whole number, or `fallback` when empty; anything else is refused rather than read as "no bound". */
function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return fallback;
  const parsed = positiveIntegerText(trimmed);
  if (parsed === undefined) {
    throw new EdgeConfigError(`${name} must be a positive whole number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function upstreamUrl(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : null;
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new EdgeConfigError(`UPSTREAM_MCP_URL must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  return url.href;
}

/** A comma-separated var as its non-empty, trimmed entries. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** An `ALLOWED_UPSTREAMS` entry; `*` or a pattern is refused: the gateway must never become an open proxy. */
function allowed(entry: string): AllowedUpstream {
  const parsed = allowedUpstream(entry);
  if (parsed === null) {
    throw new EdgeConfigError(
      `ALLOWED_UPSTREAMS entries must be http(s) origins or URLs without credentials (no wildcards), got ${JSON.stringify(entry)}`,
    );
  }
  return parsed;
}

/** Browsers send `Origin` as `scheme://host[:port]`, lowercase, no path: normalise entries to that form. */
function origin(entry: string): string {
  if (entry === '*') return entry;
  const url = URL.canParse(entry) ? new URL(entry) : null;
  if (url === null || url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new EdgeConfigError(`CORS_ORIGINS entries must be origins like https://app.example, got ${JSON.stringify(entry)}`);
  }
  return url.origin;
}

/** A short key would make its MACs guessable: at least 32 characters (e.g. `openssl rand -base64 32`). */
function secret(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length < 32) throw new EdgeConfigError(`${name} must be at least 32 characters`);
  return value;
}
