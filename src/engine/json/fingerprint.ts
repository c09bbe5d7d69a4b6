import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalJson } from './canonical-json.ts';

export { canonicalJson } from './canonical-json.ts';

/**
 * Lowercase hex SHA-256 of the RFC 8785 canonical JSON of a value (docs/architecture.md#fingerprints-and-caches).
 * Numbers a double cannot hold keep their exact digits, so two schemas that differ only there get different
 * fingerprints. Synchronous: the hash is @noble/hashes' SHA-256. Throws a `TypeError` for a value with no
 * canonical form (a lone surrogate).
 */
export function fingerprint(value: unknown): string {
  return hashText(canonicalJson(value));
}

/** The parts of a tool its fingerprint covers. */
interface FingerprintedTool {
  readonly name: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

/**
 * The fingerprint of a tool: of `{ name, inputSchema, outputSchema }`, leaving out a schema it does not have.
 * Throws (a `TypeError`) for a tool with no canonical form, such as a name with a lone surrogate: never an
 * empty or made-up fingerprint, which two different tools could share.
 */
export function toolFingerprint(tool: FingerprintedTool): string {
  return hashTool(tool);
}

/** `toolFingerprint`, or undefined for a tool with no canonical form. */
export function toolFingerprintIfAny(tool: FingerprintedTool): string | undefined {
  try {
    return hashTool(tool);
  } catch {
    return undefined;
  }
}

function hashTool(tool: FingerprintedTool): string {
  const part = (value: unknown): string | undefined => (value === undefined ? undefined : canonicalJson(value));
  return hashText(toolCanonicalJson(part(tool.name), part(tool.inputSchema), part(tool.outputSchema)));
}

/**
 * Lowercase hex SHA-256 of a text's UTF-8 bytes. The engine's default is `hashText`, pure JavaScript so it runs in a
 * page or a Worker; the Node worker passes node:crypto's (src/worker/node-hash.ts), which must give the same hex for
 * every well-formed text (test/worker/node-hash.test.ts).
 */
export type HashText = (text: string) => string;

/** Lowercase hex SHA-256 of the UTF-8 bytes of a text: the fingerprint, when the text is canonical JSON. */
export function hashText(text: string): string {
  // One encoder for every call: @noble/hashes' `utf8ToBytes` makes a TextEncoder and copies its output each time,
  // a third of the hash's cost on a small tool's text.
  return bytesToHex(sha256(encoder.encode(text)));
}

const encoder = new TextEncoder();

/**
 * The canonical JSON of `{ name, inputSchema, outputSchema }` from its members' canonical texts (undefined: left
 * out), so a tool's schemas are canonicalised once for their own fingerprints and the tool's. RFC 8785 sorts
 * members by UTF-16 code units: "inputSchema" < "name" < "outputSchema".
 */
export function toolCanonicalJson(name: string | undefined, inputSchema: string | undefined, outputSchema: string | undefined): string {
  let out = '';
  if (inputSchema !== undefined) out += `,"inputSchema":${inputSchema}`;
  if (name !== undefined) out += `,"name":${name}`;
  if (outputSchema !== undefined) out += `,"outputSchema":${outputSchema}`;
  return `{${out.slice(1)}}`;
}
