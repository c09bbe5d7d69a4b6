// The JSON Pointers cfworker writes into its output (`#/properties/a~1b/0`), decoded once per distinct text. A tool's
// failures repeat the same few locations call after call, so the decoded segments (and, for keyword locations, which
// of them name keywords) are kept in a small cache shared by every collection, bounded by the characters it holds.
// In front of it, 128 slots of one recent text each (at most 256 characters) are compared rather than hashed.
import { keywordSegments } from '../../schema/keyword-segments.ts';

/** A decoded pointer. Its arrays are frozen: leaves share them, within a call and across calls. */
export interface Pointer {
  readonly segments: readonly string[];
  /** For a keyword location: which segments name keywords (`keywordSegments`), computed on first use. */
  keywords?: readonly boolean[];
  /** For a keyword location: the segments up to the subschema holding its last keyword, computed on first use. */
  holder?: readonly string[];
}

/** Longer texts are decoded every time rather than kept (a long property name stays the caller's). */
const maxCachedLength = 256;
/** The cache starts afresh past this many characters of keys (about 128 KiB of UTF-16, plus the segments). */
const maxCachedChars = 1 << 16;

const cache = new Map<string, Pointer>();
let cachedChars = 0;

/**
 * The last pointers found, in slots chosen by length, last and middle character. cfworker builds its locations anew
 * each call, so a Map lookup hashes each text again; comparing with the one text a slot holds does not.
 */
const recentSlots = 128;
const recent: ({ readonly text: string; readonly pointer: Pointer } | undefined)[] = new Array(recentSlots).fill(undefined);

/** The pointer behind a location of cfworker's output, decoded once while the cache keeps it. */
export function pointerOf(location: string): Pointer {
  const length = location.length;
  // Length, last and middle character: `#/required` and `#/additionalProperties/not` must not share a slot.
  const slot =
    length === 0 ? 0 : (length * 37 + location.charCodeAt(length - 1) * 5 + location.charCodeAt(length >> 1)) & (recentSlots - 1);
  const last = recent[slot];
  if (last !== undefined && last.text === location) return last.pointer;
  const pointer = cachedPointer(location);
  if (length <= maxCachedLength) recent[slot] = { text: location, pointer };
  return pointer;
}

function cachedPointer(location: string): Pointer {
  const known = cache.get(location);
  if (known !== undefined) return known;
  const pointer: Pointer = { segments: Object.freeze(decodePointer(location)) };
  if (location.length <= maxCachedLength) {
    if (cachedChars + location.length > maxCachedChars) {
      cache.clear();
      cachedChars = 0;
    }
    cache.set(location, pointer);
    cachedChars += location.length;
  }
  return pointer;
}

/** Which segments of a keyword location name keywords (see `keywordSegments`). */
export function keywordsOf(pointer: Pointer): readonly boolean[] {
  pointer.keywords ??= Object.freeze(keywordSegments(pointer.segments));
  return pointer.keywords;
}

/** A keyword location's segments without its last (the keyword itself): the path to the subschema holding it. */
export function holderOf(pointer: Pointer): readonly string[] {
  pointer.holder ??= Object.freeze(pointer.segments.slice(0, -1));
  return pointer.holder;
}

/** `#/a~1b/0` → `['a/b', '0']` (cfworker percent-encodes pointer segments). */
function decodePointer(location: string): string[] {
  const body = location.startsWith('#') ? location.slice(1) : location;
  if (body === '') return [];
  const segments = body.slice(1).split('/');
  // Most locations need no decoding at all.
  if (!body.includes('%') && !body.includes('~')) return segments;
  return segments.map((segment) => {
    let decoded = segment;
    if (segment.includes('%')) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // keep the raw segment: cfworker only encodes with encodeURI, so this is not expected
      }
    }
    return decoded.includes('~') ? decoded.replace(/~1/g, '/').replace(/~0/g, '~') : decoded;
  });
}
