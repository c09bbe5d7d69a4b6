// Which MCP servers `/mcp` may reach (issue #13 item 1): the configured default plus the `ALLOWED_UPSTREAMS` entries.
// A request may name one of them (`/mcp?upstream=<url>`); anything else is refused before any fetch, so the gateway
// is never an open proxy.

/** One allow-list entry: a whole origin (any path on it) or one exact endpoint URL. */
export type AllowedUpstream =
  | { readonly kind: 'origin'; readonly origin: string }
  | { readonly kind: 'url'; readonly origin: string; readonly href: string };

/** The upstream a request chose, or why it may not have it. */
export type UpstreamChoice =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly code: 'upstream_not_allowed' | 'upstream_not_configured'; readonly message: string };

/** The query parameter a request names its upstream with. */
export const upstreamParam = 'upstream';

/**
 * An http(s) URL without credentials or fragment, normalised by the URL parser (lowercase host, default port
 * dropped, IDNA), or null. `user:pass@` is refused outright: `https://allowed.example@evil.example/` is a classic
 * look-alike, and a credential in a URL would end up in logs and cache keys.
 */
export function upstreamUrl(value: string): URL | null {
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (url.username !== '' || url.password !== '') return null;
  url.hash = '';
  return url;
}

/**
 * Reads one `ALLOWED_UPSTREAMS` entry: `https://mcp.example` (or with a bare `/`) allows every path on that origin;
 * `https://mcp.example/mcp` allows exactly that endpoint (query included). Null for anything else.
 */
export function allowedUpstream(entry: string): AllowedUpstream | null {
  const url = upstreamUrl(entry);
  // A wildcard host parses (`*` is a legal host code point) but would read as a pattern it is not: refused.
  if (url === null || url.hostname.includes('*')) return null;
  if (url.pathname === '/' && url.search === '') return { kind: 'origin', origin: url.origin };
  return { kind: 'url', origin: url.origin, href: url.href };
}

/** Whether `url` (already normalised by `upstreamUrl`) is on the list. Origins are compared whole, never by prefix. */
export function isAllowed(url: URL, allowed: readonly AllowedUpstream[]): boolean {
  return allowed.some((entry) => (entry.kind === 'origin' ? entry.origin === url.origin : entry.href === url.href));
}

/**
 * The upstream of one request: the configured default when the request names none, else the one it names if that
 * is the default or on the allow-list. Decided from the request URL alone, before the body is read or anything
 * is fetched.
 */
export function chooseUpstream(requestUrl: URL, defaultUrl: string | null, allowed: readonly AllowedUpstream[]): UpstreamChoice {
  const named = requestUrl.searchParams.get(upstreamParam);
  if (named === null || named.trim() === '') {
    if (defaultUrl !== null) return { ok: true, url: defaultUrl };
    return { ok: false, code: 'upstream_not_configured', message: 'name an upstream (/mcp?upstream=URL): UPSTREAM_MCP_URL is not set' };
  }
  const url = upstreamUrl(named);
  if (url === null) {
    return { ok: false, code: 'upstream_not_allowed', message: `${JSON.stringify(named)} is not an http(s) URL without credentials` };
  }
  if (url.href === defaultUrl || isAllowed(url, allowed)) return { ok: true, url: url.href };
  return {
    ok: false,
    code: 'upstream_not_allowed',
    message: `${url.href} is not on this gateway's allow-list (ALLOWED_UPSTREAMS); nothing was sent to it`,
  };
}
