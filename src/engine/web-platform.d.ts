// The engine compiles against ES2022 only (no DOM, no Node). URL is the one web-platform API it uses (parsing `$id`
// and `$ref`, never fetching), present in browsers, Workers and Node ≥ 20.
declare global {
  class URL {
    constructor(url: string, base?: string);
    readonly href: string;
    hash: string;
  }
}

export {};
