// Schema URIs: the reserved root base, resolving references (RFC 3986 §5.2) without throwing, dropping a fragment.
import { truncate } from '../json/truncate.ts';

/** The base URI given to a root without `$id`: reserved (.invalid), never resolvable, never fetched. */
export const rootBase = 'https://schemaval.invalid/schema.json';

/**
 * Resolves a URI reference against an absolute base, or undefined when it is not one. WHATWG URL resolves
 * against a hierarchical base (`https://…`, `tag://…`) as RFC 3986 does, and a fragment or an absolute reference
 * against any base; but against a base with an opaque path (`urn:example:root`, `tag:example.com,2024:root`) it
 * refuses any other reference, where RFC 3986 §5.2 still defines a result (and Node's parser even returns a wrong
 * one when the reference has a fragment: `foo#x` against `urn:a:b` gives `urn:a:b/foo#x`). Those are resolved
 * here, by the RFC (`resolveAgainstOpaque`).
 */
export function parseUri(reference: string, base: string): URL | undefined {
  try {
    if (!needsRfcResolution(reference, base)) return new URL(reference, base);
    const resolved = resolveAgainstOpaque(reference, base);
    return resolved === undefined ? undefined : new URL(resolved);
  } catch {
    return undefined;
  }
}

/**
 * True for a relative reference other than a fragment against a base with an opaque path: only RFC 3986 resolves
 * it, so a validator library that resolves with `new URL` must be handed the resolved, absolute form.
 */
export function needsRfcResolution(reference: string, base: string): boolean {
  if (reference.startsWith('#')) return false;
  const b = components.exec(base);
  const r = components.exec(reference);
  if (b === null || r === null || r[1] !== undefined) return false;
  return b[1] !== undefined && b[2] === undefined && !(b[3] ?? '').startsWith('/');
}

/** A URL's text without its fragment. */
export function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** RFC 3986 Appendix B: scheme, authority, path, query, fragment (undefined when absent). */
const components = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/**
 * RFC 3986 §5.2.2 for a reference without a scheme against a base whose path is opaque (no authority, and a path
 * that does not start with `/`). The RFC's result is kept even where it means little: `foo` against
 * `urn:example:root` merges into the path, and since that path holds no `/`, the merged path is `foo` itself
 * (§5.2.3), so the result is `urn:foo`; against `urn:example:a/b` it is `urn:example:a/foo`. Every `$id` and
 * `$ref` of the document is resolved the same way, so they agree with one another. Only called when
 * `needsRfcResolution` holds; undefined when the result could not be written back as the same URI (a path
 * starting `//` without an authority would read as one).
 */
function resolveAgainstOpaque(reference: string, base: string): string | undefined {
  const [, scheme, , basePath = '', baseQuery] = components.exec(base) as RegExpExecArray;
  const [, , authority, path = '', query, fragment] = components.exec(reference) as RegExpExecArray;
  let targetAuthority: string | undefined;
  let targetPath: string;
  let targetQuery: string | undefined;
  if (authority !== undefined) {
    targetAuthority = authority;
    targetPath = removeDotSegments(path);
    targetQuery = query;
  } else if (path === '') {
    targetPath = basePath;
    targetQuery = query ?? baseQuery;
  } else {
    targetPath = removeDotSegments(path.startsWith('/') ? path : basePath.slice(0, basePath.lastIndexOf('/') + 1) + path);
    targetQuery = query;
  }
  if (targetAuthority === undefined && targetPath.startsWith('//')) return undefined;
  return (
    `${scheme}:` +
    (targetAuthority === undefined ? '' : `//${targetAuthority}`) +
    targetPath +
    (targetQuery === undefined ? '' : `?${targetQuery}`) +
    (fragment === undefined ? '' : `#${fragment}`)
  );
}

/** RFC 3986 §5.2.4. */
function removeDotSegments(path: string): string {
  let input = path;
  let output = '';
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../') || input === '/..') {
      input = `/${input.slice(input === '/..' ? 3 : 4)}`;
      output = output.slice(0, Math.max(0, output.lastIndexOf('/')));
    } else if (input === '.' || input === '..') input = '';
    else {
      const end = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = end < 0 ? input : input.slice(0, end);
      output += segment;
      input = input.slice(segment.length);
    }
  }
  return output;
}

/**
 * Why `parseUri(reference, base)` gave nothing, as the end of a message: the reference is no URI reference at
 * all, or it is one that RFC 3986 cannot resolve against this opaque base as a URI of its own.
 */
export function unresolvable(reference: string, base: string): string {
  if (parseUri(reference, rootBase) === undefined) return 'is not a URI reference';
  return `cannot be resolved against the non-hierarchical base ${truncate(base)} (RFC 3986 §5.2 gives a path starting "//" without an authority)`;
}
