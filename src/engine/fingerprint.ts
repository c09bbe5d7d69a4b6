import canonicalize from 'canonicalize';
import { isLosslessNumber } from 'lossless-json';
import { exactKey, exactOfDouble, formatExact, parseExactDecimal } from './exact-decimal.ts';

/**
 * Lowercase hex SHA-256 (WebCrypto) of the RFC 8785 canonical JSON of a value. Numbers a double cannot hold keep
 * their exact digits, so two schemas that differ only there get different fingerprints.
 */
export async function fingerprint(value: unknown): Promise<string> {
  const text = canonicalJson(value);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The fingerprint of a tool: of `{ name, inputSchema, outputSchema }`, leaving out a schema it does not have. */
export function toolFingerprint(tool: {
  readonly name: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}): Promise<string> {
  const subject: Record<string, unknown> = { name: tool.name };
  if (tool.inputSchema !== undefined) subject.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) subject.outputSchema = tool.outputSchema;
  return fingerprint(subject);
}

/**
 * RFC 8785 canonical JSON text (the fingerprint's preimage). Numbers a double cannot hold are swapped for
 * unguessable placeholders, then written back as digits. Throws for values with no canonical form.
 */
export function canonicalJson(value: unknown): string {
  const nonce = [...crypto.getRandomValues(new Uint8Array(12))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  let placeholders = 0;
  const swap = (node: unknown): unknown => {
    if (typeof node === 'bigint') return exact(node.toString());
    if (typeof node !== 'object' || node === null) return node;
    if (isLosslessNumber(node)) return exact((node as { value: string }).value);
    if (Array.isArray(node)) return node.map(swap);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node))
      Object.defineProperty(out, key, { value: swap((node as Record<string, unknown>)[key]), enumerable: true });
    return out;
  };
  const exact = (digits: string): unknown => {
    const approx = Number(digits);
    const value = parseExactDecimal(digits);
    // A number the double holds exactly is canonicalised as that double (RFC 8785); any other keeps its digits.
    if (value === undefined || (Number.isFinite(approx) && exactKey(value) === exactKey(exactOfDouble(approx)))) return approx;
    placeholders++;
    return `sv${nonce}n${formatExact(value)}`;
  };
  const text = canonicalize(swap(value));
  if (text === undefined) throw new TypeError('value has no JSON form');
  return placeholders === 0 ? text : text.replace(new RegExp(`"sv${nonce}n(-?[\\d.]+(?:e-?\\d+)?)"`, 'g'), '$1');
}
