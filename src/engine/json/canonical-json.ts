import { isLosslessNumber } from 'lossless-json';
import { formatExact, meansDouble, parseExactDecimal, scientificExact } from '../numbers/exact-decimal.ts';

/**
 * RFC 8785 canonical JSON text (the fingerprint's preimage), written in one walk without copying the value.
 * Numbers a double cannot hold (`bigint`, lossless-json `LosslessNumber`) keep their exact digits. Throws for a
 * value with no canonical form: NaN, ±Infinity, a lone UTF-16 surrogate, a function or a symbol anywhere, or
 * `undefined` anywhere but as an object's member (left out, as the engine's copy leaves it out).
 */
export function canonicalJson(value: unknown): string {
  const escapesBefore = surrogateEscapes;
  const text = write(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  // JSON.stringify writes a lone surrogate as a `\udXXX` escape: one scan of the text finds any, and is needed only
  // when some string was written with such an escape in it.
  if (surrogateEscapes !== escapesBefore && hasSurrogateEscape(text)) throw new TypeError('a string holds a lone UTF-16 surrogate');
  return text;
}

/** Strings written so far whose JSON form holds `\ud` (only ever counted up, so a nested call cannot hide one). */
let surrogateEscapes = 0;

/**
 * Undefined for `undefined`, which an object leaves out. A function or a symbol throws where JSON.stringify drops it
 * (or writes null): the schema `{ enum: [f] }` would otherwise share `{ enum: [null] }`'s fingerprint, and a cache
 * keyed by it would answer one with the other's verdict, though the engine refuses the first.
 */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return double(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return exact(value.toString());
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const item = write(value[i]);
          if (item === undefined) throw new TypeError('an array holds undefined');
          out += item;
        }
        return `${out}]`;
      }
      if (isLosslessNumber(value)) return exact((value as { value: string }).value);
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length > 1) sortKeys(keys);
      let out = '{';
      for (const key of keys) {
        const member = write(record[key]);
        if (member === undefined) continue;
        if (out.length > 1) out += ',';
        out += quote(key);
        out += ':';
        out += member;
      }
      return `${out}}`;
    }
    case 'undefined':
      return undefined;
    default:
      throw new TypeError(`a ${typeof value} has no JSON form`);
  }
}

/**
 * Sorts keys by UTF-16 code units, the order RFC 8785 §3.2.3 asks for (`<` on strings and Array.prototype.sort
 * both compare so). A schema node has a few keys: sorting them in place by insertion allocates nothing, where the
 * native sort copies each list into a work array of its own (15% of what a cold compile allocated).
 */
function sortKeys(keys: string[]): void {
  if (keys.length > insertionSortMax) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
}

/** Longer key lists go to the native sort: insertion sort is quadratic. */
const insertionSortMax = 24;

/** ECMAScript number serialisation (RFC 8785 §3.2.2.3); JSON has no NaN or Infinity. */
function double(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`${value} has no JSON form`);
  return String(value);
}

/** A character JSON.stringify escapes (`"`, `\\`, a control), or any surrogate (a lone one is escaped). */
const needsEscape = /[^\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]/;

/**
 * JSON.stringify's string form is RFC 8785's (§3.2.2.2) for well-formed text (lone surrogates: see above). Text
 * with nothing to escape, most keys and descriptions, is quoted as it is, without the native call's copy.
 */
function quote(text: string): string {
  if (!needsEscape.test(text)) return `"${text}"`;
  const quoted = JSON.stringify(text);
  if (quoted.includes('\\ud')) surrogateEscapes++;
  return quoted;
}

/**
 * Whether the text holds a `\udXXX` escape of a surrogate code unit: one after an even run of backslashes (an odd
 * run ends in an escaped backslash). Linear: the runs walked back over never overlap.
 */
function hasSurrogateEscape(text: string): boolean {
  for (let at = text.indexOf('\\ud'); at !== -1; at = text.indexOf('\\ud', at + 3)) {
    let run = 0;
    while (at - run - 1 >= 0 && text.charCodeAt(at - run - 1) === 0x5c) run++;
    if (run % 2 === 0 && '89abcdef'.includes(text.charAt(at + 3))) return true;
  }
  return false;
}

/**
 * Exact number text: the double it reads as when it means that double (RFC 8785; `meansDouble`), else its exact
 * digits. From 2^53 to 10^21 a double is written in plain digits that are not its value (`2 ** 60` as
 * `1152921504606847000`): an exact number with those very digits is written with an exponent instead
 * (`1.152921504606847e18`), a form no double takes there, so the two never share a fingerprint.
 */
function exact(digits: string): string {
  const approx = Number(digits);
  const value = parseExactDecimal(digits);
  if (value === undefined || meansDouble(value, approx)) return double(approx);
  const text = formatExact(value);
  return text === String(approx) ? scientificExact(value) : text;
}
