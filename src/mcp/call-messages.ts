/**
 * The wording every surface uses when it refuses a `tools/call` before sending it, so the host adapter, the page,
 * the gateway and the CLI say the same thing (tests match these strings).
 */

/** A call to a tool the listing does not hold (never listed, left out as malformed, or past the listing's bounds). */
export function unknownToolMessage(name: string): string {
  return `Tool "${name}" is not in the server's tool list; the call was not sent`;
}

/** A call to a listed tool that was refused: `code` is its refusal code (`invalid_tool`, `remote_ref`, …). */
export function refusedToolMessage(name: string, refusal: { readonly code: string; readonly message: string }): string {
  return `Tool "${name}" is refused by schema policy (${refusal.code}: ${refusal.message}); the call was not sent`;
}
