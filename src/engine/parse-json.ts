import { isSafeNumber, LosslessNumber, parse } from 'lossless-json';
import { utf8Bytes } from './utf8-bytes.ts';

/** Why JSON text was not accepted. */
export type ParseJsonFailure = { readonly ok: false; readonly code: 'too_large' | 'too_deep' | 'malformed'; readonly message: string };

export type ParseJsonResult = { readonly ok: true; readonly value: unknown } | ParseJsonFailure;

export interface ParseJsonLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

const integerLiteral = /^-?\d+$/;

/** Integers must survive exactly; other numbers only when they are 2^53 or more (a fraction would be lost). */
function exactAsDouble(digits: string): boolean {
  if (integerLiteral.test(digits)) return isSafeNumber(digits);
  return Math.abs(Number(digits)) < 2 ** 53 || isSafeNumber(digits);
}

/**
 * Parses JSON text losslessly: integers a double cannot hold stay exact as lossless-json `LosslessNumber`s,
 * every other number is a plain `number`. Size and nesting are checked on the raw text first, so a hostile
 * document never reaches the (recursive) parser. Duplicate keys with different values are malformed.
 */
export function parseJson(text: string, limits: ParseJsonLimits): ParseJsonResult {
  // A character is 1–3 UTF-8 bytes; count exactly only when the cheap bound is not enough.
  if (text.length > limits.maxBytes || (text.length * 3 > limits.maxBytes && utf8Bytes(text) > limits.maxBytes)) {
    return { ok: false, code: 'too_large', message: `over ${limits.maxBytes} bytes of JSON` };
  }
  const depth = nesting(text, limits.maxDepth);
  if (depth > limits.maxDepth) return { ok: false, code: 'too_deep', message: `nesting deeper than ${limits.maxDepth}` };
  try {
    const value = parse(text, undefined, (digits: string) => (exactAsDouble(digits) ? Number(digits) : new LosslessNumber(digits)));
    return { ok: true, value };
  } catch (error) {
    return { ok: false, code: 'malformed', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Bracket nesting outside strings, scanning no further than one level past `max`. */
function nesting(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}
