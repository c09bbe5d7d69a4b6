// Keys the gateway's state by credential (issue #10 item 3): a client only ever reaches state made under its own
// Authorization header, and no key or log holds the credential itself.

const encoder = new TextEncoder();

/**
 * `hex(SHA-256(upstreamUrl + "\n" + (Authorization ?? "")))`: the same credential against the same upstream gets
 * the same scope, anything else a different one. WebCrypto, so it runs in workerd, Node and browsers alike.
 */
export async function credentialScope(upstreamUrl: string, authorization: string | null): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${upstreamUrl}\n${authorization ?? ''}`));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The Durable Object / memory store key of a request: its credential scope and its `Mcp-Session-Id` (`stateless`
 * when the upstream issues none). A session id sent under another credential names a different, empty store.
 */
export function stateKey(scope: string, sessionId: string | null): string {
  return `${scope}:${sessionId ?? 'stateless'}`;
}
