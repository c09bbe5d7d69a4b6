// The engine compiles against ES2022 only (no DOM, no Node). These are the few web-platform APIs it may use,
// all present in browsers, Workers and Node ≥ 20: WebCrypto, TextEncoder and URL (parsing only, never fetching).
declare global {
  interface SubtleCrypto {
    digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
  }
  interface Crypto {
    readonly subtle: SubtleCrypto;
    getRandomValues<T extends Uint8Array>(array: T): T;
  }
  var crypto: Crypto;
  class URL {
    constructor(url: string, base?: string);
    readonly href: string;
    hash: string;
  }
  class TextEncoder {
    encode(input?: string): Uint8Array;
  }
}

export {};
