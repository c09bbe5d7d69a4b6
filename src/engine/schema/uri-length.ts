/**
 * How long `text` is once it sits in a URI as cfworker writes one, without building it: the length of
 * `encodePointer(text)` (`~` → `~0`, `/` → `~1`, then `encodeURI`, `#` → `%23`) for a pointer token, and at least
 * the length of an anchor or reference once parsed and percent-encoded. The validator keys every subschema by such
 * strings, so the policy walk adds these lengths up instead of concatenating pointers (docs/policy.md).
 */
export function uriLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += code === 0x7e || code === 0x2f ? 2 : uriSafe[code] === 1 ? 1 : 3;
    else if (code < 0x800) length += 6;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair is one code point of four UTF-8 bytes, each written %XX.
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 12;
        i++;
      } else length += 9;
    } else length += 9;
  }
  return length;
}

/** ASCII that `encodeURI` leaves as it is (`#` is escaped by cfworker afterwards; `~` and `/` by the pointer). */
const uriSafe = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789;,?:@&=+$-_.!*'()") uriSafe[char.charCodeAt(0)] = 1;
