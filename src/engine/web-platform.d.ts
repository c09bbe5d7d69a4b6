// The engine compiles against ES2022 only (no DOM, no Node). It uses two web-platform APIs, present in browsers,
// Workers and Node ≥ 20: URL (parsing `$id` and `$ref`, never fetching) and TextEncoder (the UTF-8 bytes it hashes).
declare global {
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
