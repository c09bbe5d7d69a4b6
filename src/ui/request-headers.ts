// Extra HTTP headers a person gives for one server (`Authorization: Bearer …`), read from "Name: value" lines. They
// travel with that server's requests to the gateway, which passes them on (edge/src/gateway/mcp-gateway.ts).

/** The headers, or why a line cannot be one (the line is named by number, never quoted: it may hold a secret). */
export type ParsedHeaders =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly message: string };

/** An HTTP field name (RFC 9110 §5.1: a token). */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Names the page may not set: the transport's own (a session id or revision from here would break the session),
 * those a browser refuses to send from script, and those the gateway does not pass on (hop-by-hop, `cf-*`).
 */
const reserved = new Set([
  'accept',
  'content-type',
  'content-length',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'host',
  'cookie',
  'origin',
  'referer',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-authorization',
  'accept-encoding',
]);

/** A control character other than tab: a browser's `Headers` would throw on it. */
const isControl = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
};

/** Reads one header per line (`Name: value`); blank lines are skipped, and a later line of the same name wins. */
export function parseRequestHeaders(text: string): ParsedHeaders {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    const at = `Request headers, line ${i + 1}`;
    if (!token.test(name)) return { ok: false, message: `${at}: write it as "Name: value", such as "Authorization: Bearer …"` };
    const lower = name.toLowerCase();
    if (reserved.has(lower) || lower.startsWith('cf-') || lower.startsWith('sec-') || lower.startsWith('proxy-')) {
      return { ok: false, message: `${at}: ${name} is set by the page, the browser or the gateway, not here` };
    }
    if ([...value].some(isControl)) return { ok: false, message: `${at}: the value holds a control character` };
    headers[lower] = value;
  }
  return { ok: true, headers };
}
