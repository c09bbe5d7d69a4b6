/** UTF-8 byte length of text, without allocating (a lone surrogate counts as the 3-byte replacement). */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 2; // a surrogate pair: two UTF-16 units, four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
