// SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as lowercase hex, in one pass with buffers reused across calls.
// A tools/list of 10,000 tools hashes 10,000 short texts: @noble/hashes allocates an encoder output, a hasher, views
// and a digest per call, which cost ~15 us a text in workerd; this writes the bytes straight into a reused block
// buffer (short texts; a long one gets a buffer of its own). test/engine-sha256-hex.test.ts checks it against @noble/hashes.

const k = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const hexByte = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const w = new Int32Array(64);
const state = new Int32Array(8);
const initial = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
/** Texts up to this many UTF-16 units are encoded into one reused buffer; a longer one gets its own, dropped after. */
const reusedUnits = 16 * 1024;
const reused = new Uint8Array(reusedUnits * 3 + 72);
/** The UTF-8 bytes of the text being hashed, padded in place. */
let bytes = reused;

/** Lowercase hex SHA-256 of `text` encoded as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder does). */
export function sha256Hex(text: string): string {
  // At most 3 bytes per UTF-16 unit, plus room for the padding.
  bytes = text.length <= reusedUnits ? reused : new Uint8Array(text.length * 3 + 72);
  const length = encodeUtf8(text);
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian integer, to a multiple of 64 bytes.
  const padded = Math.ceil((length + 9) / 64) * 64;
  bytes[length] = 0x80;
  bytes.fill(0, length + 1, padded);
  const bits = length * 8;
  const view = padded - 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  bytes[view] = high >>> 24;
  bytes[view + 1] = high >>> 16;
  bytes[view + 2] = high >>> 8;
  bytes[view + 3] = high;
  bytes[view + 4] = bits >>> 24;
  bytes[view + 5] = bits >>> 16;
  bytes[view + 6] = bits >>> 8;
  bytes[view + 7] = bits;
  state.set(initial);
  for (let offset = 0; offset < padded; offset += 64) compress(offset);
  bytes = reused;
  let hex = '';
  for (let i = 0; i < 8; i++) {
    const word = state[i] as number;
    hex += (hexByte[word >>> 24] as string) + hexByte[(word >>> 16) & 0xff] + hexByte[(word >>> 8) & 0xff] + hexByte[word & 0xff];
  }
  return hex;
}

/** Writes `text` as UTF-8 into `bytes` from 0; returns the byte length. */
function encodeUtf8(text: string): number {
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[at++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[at++] = 0xc0 | (code >> 6);
      bytes[at++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        bytes[at++] = 0xf0 | (code >> 18);
        bytes[at++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
    }
    bytes[at++] = 0xe0 | (code >> 12);
    bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[at++] = 0x80 | (code & 0x3f);
  }
  return at;
}

function compress(offset: number): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] = ((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const w15 = w[i - 15] as number;
    const w2 = w[i - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + (k[i] as number) + (w[i] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}
