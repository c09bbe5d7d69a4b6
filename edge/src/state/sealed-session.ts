// Sealed session ids (issue #17): the gateway hands a client the upstream's `Mcp-Session-Id` with a MAC bound to the
// client's credential scope, and takes back only ids that verify. A forged id then costs one HMAC and a 404, never a
// state key, a session store or a Durable Object (each forged id used to be a Durable Object of its own).

/**
 * The longest `Mcp-Session-Id` the gateway reads, sealed form included (1 KiB: a UUID is 36 characters, and upstreams
 * that pack state into their ids stay well under it). Longer is refused before any MAC work.
 */
export const maxSealedSessionIdLength = 1024;
/** The MAC: HMAC-SHA-256, as 64 hex digits after a `.` (hex: visible ASCII, and the `.` split stays unambiguous). */
const macHexLength = 64;
/** The longest upstream id that can be sealed within `maxSealedSessionIdLength`. */
export const maxUpstreamSessionIdLength = maxSealedSessionIdLength - 1 - macHexLength;

/** The MCP transport's rule for a session id: visible ASCII only, 0x21 to 0x7E (2025-11-25, basic/transports). */
const visibleAscii = /^[\x21-\x7e]+$/;
const hexMac = /^[0-9a-f]{64}$/;
/** Domain separation: this key's MACs must never mean anything but a session id for a scope. */
const label = 'schemaval-session-v1';
const encoder = new TextEncoder();

export interface SessionSealer {
  /** `<upstreamId>.<mac>`; undefined when the upstream's id is not visible ASCII or too long to seal. */
  seal(upstreamId: string, scope: string): Promise<string | undefined>;
  /** The upstream's own id when `sealed` was sealed by this key for `scope`; undefined otherwise. */
  unseal(sealed: string, scope: string): Promise<string | undefined>;
}

/**
 * A sealer keyed by `secret` (the `SESSION_SECRET` Worker secret). Without one, a random key made here: its ids open
 * with no other sealer and none survives a restart (index.ts gives every gateway the isolate's one key instead).
 */
export function createSessionSealer(secret?: string): SessionSealer {
  const raw = secret !== undefined && secret !== '' ? encoder.encode(secret) : crypto.getRandomValues(new Uint8Array(32));
  const key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // The scope is 64 hex digits and the id has no newline, so the fields cannot run into each other.
  const signed = (upstreamId: string, scope: string) => encoder.encode(`${label}\n${scope}\n${upstreamId}`);

  return {
    async seal(upstreamId, scope) {
      if (upstreamId.length > maxUpstreamSessionIdLength || !visibleAscii.test(upstreamId)) return undefined;
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, signed(upstreamId, scope)));
      let hex = '';
      for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
      return `${upstreamId}.${hex}`;
    },
    async unseal(sealed, scope) {
      // Bounds and shape first: nothing over the bound or outside visible ASCII reaches the MAC.
      if (sealed.length > maxSealedSessionIdLength || !visibleAscii.test(sealed)) return undefined;
      const dot = sealed.lastIndexOf('.');
      const upstreamId = sealed.slice(0, dot);
      const hex = sealed.slice(dot + 1);
      if (dot < 1 || !hexMac.test(hex)) return undefined;
      const mac = new Uint8Array(macHexLength / 2);
      for (let i = 0; i < mac.length; i++) mac[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      // subtle.verify compares in constant time (BoringSSL / OpenSSL CRYPTO_memcmp).
      return (await crypto.subtle.verify('HMAC', await key, mac, signed(upstreamId, scope))) ? upstreamId : undefined;
    },
  };
}
