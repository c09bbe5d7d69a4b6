import { stringify } from 'lossless-json';
import { parseJson } from '../../../src/engine/json/index.ts';

/**
 * What the gateway binds to the `requestState` it hands the client in an MRTR `InputRequiredResult`
 * (MCP 2026-07-28, basic/patterns/mrtr): the upstream's own state, the call it belongs to, the credential scope
 * that may present it, and the `requestedSchema` of every elicitation it let through, so the retry's
 * `inputResponses` can be checked by any isolate without shared state.
 */
export interface RequestStatePayload {
  /** The tool the state was issued for; a retry of another tool is refused. */
  readonly tool: string;
  /** The credential scope (hex SHA-256, never the credential) the state was issued to. */
  readonly scope: string;
  /** The upstream's own `requestState`, restored on the retry; absent when the upstream sent none. */
  readonly state?: string;
  /** Every `inputRequests` key: the elicitation's `requestedSchema`, or null for requests not checked here. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Expiry, milliseconds since the epoch. */
  readonly expires: number;
}

/** Why a presented envelope was not accepted. */
export type OpenFailure = 'malformed' | 'forged' | 'expired';

export interface RequestStateSealer {
  /** The envelope: `sv1.<payload>.<mac>`, base64url, HMAC-SHA-256 over `sv1.<payload>`. */
  seal(payload: RequestStatePayload): Promise<string>;
  /** Verifies (constant time, by WebCrypto) and decodes an envelope; expired at `now` or later is refused. */
  open(token: string, now: number): Promise<{ ok: true; payload: RequestStatePayload } | { ok: false; reason: OpenFailure }>;
}

const prefix = 'sv1.';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A sealer keyed by `secret` (the `REQUEST_STATE_SECRET` Worker secret). Without one, a random key per isolate:
 * fine for a single dev process, but an envelope issued by one isolate fails in another, so set it in production.
 */
export function createRequestStateSealer(secret: string | undefined): RequestStateSealer {
  const raw = secret !== undefined && secret !== '' ? encoder.encode(secret) : crypto.getRandomValues(new Uint8Array(32));
  const key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  return {
    async seal(payload) {
      const body = prefix + toBase64Url(encoder.encode(stringify(payload) ?? '{}'));
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(body)));
      return `${body}.${toBase64Url(mac)}`;
    },
    async open(token, now) {
      const dot = token.lastIndexOf('.');
      if (!token.startsWith(prefix) || dot <= prefix.length) return { ok: false, reason: 'malformed' };
      const body = token.slice(0, dot);
      const mac = fromBase64Url(token.slice(dot + 1));
      const bytes = fromBase64Url(body.slice(prefix.length));
      if (mac === undefined || bytes === undefined) return { ok: false, reason: 'malformed' };
      // subtle.verify compares the MACs in constant time (BoringSSL / OpenSSL CRYPTO_memcmp).
      if (!(await crypto.subtle.verify('HMAC', await key, mac, encoder.encode(body)))) return { ok: false, reason: 'forged' };
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const parsed = parseJson(text, { maxBytes: text.length * 3 + 2, maxDepth: 128 });
      if (!parsed.ok || !isPayload(parsed.value)) return { ok: false, reason: 'malformed' };
      if (!(now < parsed.value.expires)) return { ok: false, reason: 'expired' };
      return { ok: true, payload: parsed.value };
    },
  };
}

function isPayload(value: unknown): value is RequestStatePayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.tool === 'string' &&
    typeof v.scope === 'string' &&
    (v.state === undefined || typeof v.state === 'string') &&
    typeof v.inputs === 'object' &&
    v.inputs !== null &&
    !Array.isArray(v.inputs) &&
    typeof v.expires === 'number'
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
