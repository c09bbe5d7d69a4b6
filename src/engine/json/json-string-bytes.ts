/**
 * Bytes a string's characters take inside a JSON string literal as `JSON.stringify` writes it (UTF-8, escapes
 * counted, a lone surrogate as its `\uXXXX` escape), without allocating.
 */
export function jsonStringBytes(text: string): number {
  return countBytes(text, false);
}

/** `jsonStringBytes` of an object key, or -1 when it holds a lone surrogate (not a key in I-JSON): one pass for both. */
export function jsonKeyBytes(text: string): number {
  return countBytes(text, true);
}

/** Printable ASCII but `"` and `\\`: one byte each, no escape. Most keys and descriptions are all such. */
const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function countBytes(text: string, refuseLoneSurrogate: boolean): number {
  // A long string (a description) is scanned natively first; for a short key the loop is as quick as the call.
  if (text.length > 24 && plainAscii.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x22 || code === 0x5c) bytes += code < 0x20 ? controlEscape(code) : 1;
    } else if (code < 0x800) bytes += 1;
    else if (code < 0xd800 || code > 0xdfff) bytes += 2;
    else if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2; // a surrogate pair: two UTF-16 units, four bytes
      i++;
    } else if (refuseLoneSurrogate) return -1;
    else bytes += 5;
  }
  return bytes;
}

/** Extra bytes of a control character's escape: `\n` and its kind take two characters, the rest `\u00XX`. */
function controlEscape(code: number): number {
  return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
