/** Bytes a string's characters take inside a JSON string literal (UTF-8, escapes counted), without allocating. */
export function jsonStringBytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x22 || code === 0x5c) bytes += code < 0x20 ? 5 : 1;
    } else if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: two UTF-16 units, four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
