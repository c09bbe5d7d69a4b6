import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256Hex } from '../src/engine/sha256-hex.ts';

const reference = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 examples', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(
      sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches @noble/hashes at every length around the block and padding edges', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'x'.repeat(length);
      assert.equal(sha256Hex(text), reference(text), `length ${length}`);
    }
  });

  it('encodes two-, three- and four-byte UTF-8, and a lone surrogate as U+FFFD', () => {
    for (const text of ['é', '€uro', '日本語のテキスト', '😀 emoji 𝄞', 'a\ud800b', '\udc00', 'end\ud83d']) {
      assert.equal(sha256Hex(text), reference(text), JSON.stringify(text));
    }
  });

  it('hashes texts longer than its reused buffer, and short ones after them', () => {
    const long = `${'{"k":"€"}'.repeat(5000)}😀`;
    assert.equal(sha256Hex(long), reference(long));
    assert.equal(sha256Hex('abc'), reference('abc'));
    const random = Array.from({ length: 3000 }, (_, i) => String.fromCharCode((i * 7919) % 0xffff)).join('');
    assert.equal(sha256Hex(random), reference(random));
  });
});
