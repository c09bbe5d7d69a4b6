// Schema URIs: the reserved root base, parsing without throwing, dropping a fragment.

/** The base URI given to a root without `$id`: reserved (.invalid), never resolvable, never fetched. */
export const rootBase = 'https://schemaval.invalid/schema.json';

/** Parses a URI reference against a base, or undefined when it is not one. */
export function parseUri(reference: string, base: string): URL | undefined {
  try {
    return new URL(reference, base);
  } catch {
    return undefined;
  }
}

/** A URL's text without its fragment. */
export function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
