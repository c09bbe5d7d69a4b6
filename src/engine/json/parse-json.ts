import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { isDoubleText } from '../numbers/exact-decimal.ts';
import { utf8Bytes } from './utf8-bytes.ts';

/** Why JSON text was not accepted. */
export type ParseJsonFailure = { readonly ok: false; readonly code: 'too_large' | 'too_deep' | 'malformed'; readonly message: string };

export type ParseJsonResult = { readonly ok: true; readonly value: unknown } | ParseJsonFailure;

export interface ParseJsonLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

/**
 * Parses JSON text losslessly: a number whose text is not exactly a double (`9007199254740993`, `1e400`,
 * `4503599627370496.5`) stays exact as a lossless-json `LosslessNumber`, every other number is a plain `number`.
 * Size and nesting are checked on the raw text first, so a hostile document never reaches the (recursive)
 * parser. Any duplicate object key is malformed, even with an equal value (RFC 8259 §4 leaves it open; I-JSON
 * forbids it, and a gateway must not let two readers see two different objects).
 */
export function parseJson(text: string, limits: ParseJsonLimits): ParseJsonResult {
  // A character is 1–3 UTF-8 bytes; count exactly only when the cheap bound is not enough.
  if (text.length > limits.maxBytes || (text.length * 3 > limits.maxBytes && utf8Bytes(text) > limits.maxBytes)) {
    return { ok: false, code: 'too_large', message: `over ${limits.maxBytes} bytes of JSON` };
  }
  const scan = scanText(text, limits.maxDepth);
  if (scan.deepest > limits.maxDepth) return { ok: false, code: 'too_deep', message: `nesting deeper than ${limits.maxDepth}` };
  let value: unknown;
  try {
    // Text whose every number is exactly a double parses natively (about 8 times faster) to the same value;
    // the lossless parser takes the rest, and any malformed text, so its messages say what is wrong.
    value = scan.inexactNumber ? parseLossless(text) : parseNatively(text);
  } catch (error) {
    return { ok: false, code: 'malformed', message: error instanceof Error ? error.message : String(error) };
  }
  // lossless-json keeps one member per repeated key when the values are equal (the native parser always does):
  // every ':' outside strings is a member, so fewer keys than that means a repeat somewhere.
  if (countKeys(value) !== scan.members) {
    // The lossless parser names a repeat with different values itself: the same message whichever parsed first.
    if (!scan.inexactNumber) {
      try {
        parseLossless(text);
      } catch (error) {
        return { ok: false, code: 'malformed', message: error instanceof Error ? error.message : String(error) };
      }
    }
    const duplicate = findDuplicateKey(text);
    const where = duplicate === undefined ? '' : ` ${JSON.stringify(duplicate.key.slice(0, 60))} at position ${duplicate.position}`;
    return { ok: false, code: 'malformed', message: `duplicate object key${where}` };
  }
  return { ok: true, value };
}

/** Keys of every object in a parsed value (its nesting is already bounded). */
function countKeys(value: unknown): number {
  if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += countKeys(item);
    return count;
  }
  for (const key of Object.keys(value)) count += 1 + countKeys((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * The first repeated key of well-formed JSON text and where it starts: one pass with a key set per open object.
 * A string is a key when it follows `{` or a `,` inside an object.
 */
function findDuplicateKey(text: string): { key: string; position: number } | undefined {
  const open: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      const keys = open[open.length - 1];
      if (expectKey && keys !== undefined) {
        const raw = text.slice(start, i + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(key)) return { key, position: start };
        keys.add(key);
      }
      expectKey = false;
    } else if (code === 0x7b) {
      open.push(new Set());
      expectKey = true;
    } else if (code === 0x5b) {
      open.push(undefined);
      expectKey = false;
    } else if (code === 0x5d || code === 0x7d) open.pop();
    else if (code === 0x2c) expectKey = open[open.length - 1] !== undefined;
  }
  return undefined;
}

function parseLossless(text: string): unknown {
  return parse(text, undefined, (digits: string) => (isDoubleText(digits) ? Number(digits) : new LosslessNumber(digits)));
}

function parseNatively(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parseLossless(text);
  }
}

interface TextScan {
  readonly deepest: number;
  readonly members: number;
  /** A number whose text is not exactly a double (`9007199254740993`, `1e400`): the lossless parser is needed. */
  readonly inexactNumber: boolean;
}

/**
 * Bracket nesting, object members (`:`) and numbers outside strings, scanning no further than one level past
 * `max`. Outside strings only numbers hold digits or `-`; an integer of at most 15 digits is always a double.
 */
function scanText(text: string, max: number): TextScan {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let inString = false;
  let inexactNumber = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      // Jump to the closing quote natively (a 700 KB string costs no per-character JS): a quote ends the string
      // when an even run of backslashes precedes it; an unterminated string is left to the parser to refuse.
      const start = i;
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) {
          i = text.length;
          break;
        }
        let k = end - 1;
        while (k > start && text.charCodeAt(k) === 0x5c) k--;
        i = end;
        if ((end - 1 - k) % 2 === 0) break;
      }
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return { deepest, members, inexactNumber };
    } else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x3a) members++;
    else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const start = i;
      let plain = true;
      for (; i + 1 < text.length; i++) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0x30 && next <= 0x39) continue;
        if (next === 0x2e || next === 0x65 || next === 0x45 || next === 0x2b || next === 0x2d) plain = false;
        else break;
      }
      const digits = i + 1 - start - (code === 0x2d ? 1 : 0);
      if (!inexactNumber && (!plain || digits > 15) && !isDoubleText(text.slice(start, i + 1))) inexactNumber = true;
    }
  }
  return { deepest, members, inexactNumber };
}
