/**
 * Strict checkers for the four formats an elicitation form asserts (docs/architecture.md#schema-policy-and-refusal-codes): what a person typed is checked
 * against the RFC grammar, not a permissive library regex. Each is a linear scan: simple character classes and
 * loops, no nested quantifiers, so no input can make them backtrack.
 */

/** The validator-facing names: unique, so registering them changes nothing for other users of the library. */
export const formFormatNames: ReadonlyMap<string, string> = new Map([
  ['email', 'schemaval-form-email'],
  ['uri', 'schemaval-form-uri'],
  ['date', 'schemaval-form-date'],
  ['date-time', 'schemaval-form-date-time'],
]);

/** The format name an author wrote, for one of ours (`schemaval-form-uri` → `uri`); others unchanged. */
export const authoredFormat = (name: string): string => (name.startsWith('schemaval-form-') ? name.slice('schemaval-form-'.length) : name);

const dateShape = /^(\d{4})-(\d{2})-(\d{2})$/;
const timeShape = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** RFC 3339 `full-date`: a real calendar day (2024-02-29 yes, 2023-02-29 no). */
export function isFormDate(text: string): boolean {
  const match = dateShape.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/**
 * RFC 3339 `date-time`: `T` or `t` between date and time, `Z`/`z` or a numeric offset; a leap second (`:60`) only
 * where it is 23:59 in UTC. A space instead of `T` (allowed by RFC 3339's prose, not its grammar) is refused.
 */
export function isFormDateTime(text: string): boolean {
  const t = text.length > 10 ? text[10] : undefined;
  if (t !== 'T' && t !== 't') return false;
  if (!isFormDate(text.slice(0, 10))) return false;
  const match = timeShape.exec(text.slice(11));
  if (!match) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const offsetHours = match[5] === undefined ? 0 : Number(match[5]);
  const offsetMinutes = match[6] === undefined ? 0 : Number(match[6]);
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return false;
  if (second === 60) {
    const sign = match[4] === '-' ? -1 : 1;
    const utc = (((hour * 60 + minute - sign * (offsetHours * 60 + offsetMinutes)) % 1440) + 1440) % 1440;
    if (utc !== 23 * 60 + 59) return false;
  }
  return true;
}

// Character classes as ASCII tables: a code unit of 0x80 or more (a non-ASCII letter, NBSP, U+2028, half of a
// surrogate pair, a lone surrogate) is in none of them, so both grammars below are ASCII only.
const asciiTable = (...parts: string[]): Uint8Array => {
  const table = new Uint8Array(128);
  for (const part of parts) for (let i = 0; i < part.length; i++) table[part.charCodeAt(i)] = 1;
  return table;
};
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
const inTable = (table: Uint8Array, code: number): boolean => code < 128 && table[code] === 1;
const hexTable = asciiTable(digits, 'ABCDEFabcdef');
const isHex = (code: number): boolean => inTable(hexTable, code);
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

// RFC 3986 §2.2–§2.3, §3.1–§3.5.
const unreserved = `${letters}${digits}-._~`;
const subDelims = "!$&'()*+,;=";
const schemeTable = asciiTable(letters, digits, '+-.');
const pathTable = asciiTable(unreserved, subDelims, ':@/');
const queryTable = asciiTable(unreserved, subDelims, ':@/?');
const userinfoTable = asciiTable(unreserved, subDelims, ':');
const regNameTable = asciiTable(unreserved, subDelims);
const alphaTable = asciiTable(letters);
const digitTable = asciiTable(digits);

/**
 * Every character of `text` is in `table` or, where `escapes` allows, starts a `%HH` escape (`pct-encoded`: a `%`
 * and exactly two hex digits).
 */
function allowed(text: string, table: Uint8Array, escapes = true): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25 && escapes) {
      if (!isHex(text.charCodeAt(i + 1)) || !isHex(text.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (!inTable(table, code)) return false;
  }
  return true;
}

/**
 * RFC 3986 `URI` (absolute, a fragment allowed): `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`. An
 * authority holds an optional userinfo, a host (a registered name or IPv4 address, or in brackets an `IPv6address`
 * or `IPvFuture` — the only place brackets may appear; no RFC 6874 zone id) and a port of digits; percent-escapes
 * are `%HH`; nothing outside the ASCII grammar (an IRI's non-ASCII letters included) is accepted.
 */
export function isFormUri(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon < 1 || !inTable(alphaTable, text.charCodeAt(0)) || !allowed(text.slice(1, colon), schemeTable, false)) return false;
  let rest = text.slice(colon + 1);
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    if (!allowed(rest.slice(hash + 1), queryTable)) return false;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  if (question >= 0) {
    if (!allowed(rest.slice(question + 1), queryTable)) return false;
    rest = rest.slice(0, question);
  }
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    path = slash >= 0 ? rest.slice(slash) : '';
    if (!isAuthority(slash >= 0 ? rest.slice(2, slash) : rest.slice(2))) return false;
  }
  return allowed(path, pathTable);
}

/** RFC 3986 `authority`: `[ userinfo "@" ] host [ ":" port ]`. */
function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !allowed(authority.slice(0, at), userinfoTable)) return false;
  const hostPort = authority.slice(at + 1);
  let port = '';
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return false;
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return false;
    port = after.slice(1);
    const literal = hostPort.slice(1, close);
    if (!isIpv6(literal) && !isIpFuture(literal)) return false;
  } else {
    const portColon = hostPort.indexOf(':');
    if (portColon >= 0) port = hostPort.slice(portColon + 1);
    if (!allowed(portColon >= 0 ? hostPort.slice(0, portColon) : hostPort, regNameTable)) return false;
  }
  for (let i = 0; i < port.length; i++) if (!isDigit(port.charCodeAt(i))) return false;
  return true;
}

/** RFC 3986 `IPvFuture`: `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )` — no percent-escapes. */
function isIpFuture(text: string): boolean {
  if (text.charAt(0) !== 'v' && text.charAt(0) !== 'V') return false;
  let i = 1;
  while (isHex(text.charCodeAt(i))) i++;
  if (i === 1 || text.charAt(i) !== '.' || i + 1 === text.length) return false;
  return allowed(text.slice(i + 1), userinfoTable, false);
}

/** Four dotted decimal numbers, each accepted by `octet`. */
function isDottedQuad(text: string, octet: (part: string) => boolean): boolean {
  const parts = text.split('.', 5);
  return parts.length === 4 && parts.every(octet);
}

/** RFC 3986 `dec-octet`: 0–255 without leading zeros. */
const isDecOctet = (part: string): boolean =>
  part.length >= 1 &&
  part.length <= 3 &&
  allowed(part, digitTable, false) &&
  (part.length === 1 || part.charAt(0) !== '0') &&
  Number(part) <= 255;

/** RFC 5321 `Snum`: one to three digits, 0–255 (leading zeros allowed). */
const isSnum = (part: string): boolean => part.length >= 1 && part.length <= 3 && allowed(part, digitTable, false) && Number(part) <= 255;

const isH16 = (group: string): boolean => group.length >= 1 && group.length <= 4 && allowed(group, hexTable, false);

/**
 * The text form of an IPv6 address: hex groups of one to four digits split by `:`, `::` at most once, and an IPv4
 * address (checked by `octet`) allowed as the very last piece only, where it counts as two groups. Without `::`
 * there are exactly eight groups; with it, at most `compressed` (the rest are the zeros `::` stands for).
 */
function isIpv6Text(text: string, octet: (part: string) => boolean, compressed: number): boolean {
  if (text.length > 45) return false; // the longest: six groups of four and a 15-character IPv4 address
  const gap = text.indexOf('::');
  if (gap >= 0 && text.indexOf('::', gap + 1) >= 0) return false;
  const head = gap < 0 ? text : text.slice(0, gap);
  const tail = gap < 0 ? '' : text.slice(gap + 2);
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const last = gap < 0 ? headGroups : tailGroups;
  let count = 0;
  if (last[last.length - 1]?.includes('.')) {
    if (!isDottedQuad(last.pop() ?? '', octet)) return false;
    count = 2;
  }
  if (!headGroups.every(isH16) || !tailGroups.every(isH16)) return false;
  count += headGroups.length + tailGroups.length;
  return gap < 0 ? count === 8 : count <= compressed;
}

/** RFC 3986 `IPv6address` (as RFC 4291 §2.2): `::` stands for one or more groups of zeros. */
export const isIpv6 = (text: string): boolean => isIpv6Text(text, isDecOctet, 7);

/**
 * RFC 5321 `IPv6-addr`: as RFC 3986's but `::` stands for at least two groups (`IPv6-comp`: at most six groups
 * besides it, `IPv6v4-comp`: at most four and the IPv4 address; erratum 2467, which asked for one, was rejected),
 * and the IPv4 part is `Snum`s.
 */
const isSmtpIpv6 = (text: string): boolean => isIpv6Text(text, isSnum, 6);

const atextTable = asciiTable(letters, digits, "!#$%&'*+-/=?^_`{|}~");
const letDigTable = asciiTable(letters, digits);
const ldhTable = asciiTable(letters, digits, '-');

/** RFC 5321 `Dot-string`: atoms of `atext` joined by single dots. */
const isDotString = (local: string): boolean => local.split('.').every((atom) => atom !== '' && allowed(atom, atextTable, false));

/**
 * RFC 5321 `Quoted-string`: `DQUOTE *( qtextSMTP / quoted-pairSMTP ) DQUOTE` — printable ASCII and space, with `"`
 * and `\` only as `\"` and `\\` (a backslash may quote any printable character or space).
 */
function isQuotedString(local: string): boolean {
  if (local.length < 2 || local.charAt(0) !== '"' || local.charAt(local.length - 1) !== '"') return false;
  for (let i = 1; i < local.length - 1; i++) {
    const code = local.charCodeAt(i);
    if (code === 0x5c) {
      const quoted = local.charCodeAt(++i);
      if (i >= local.length - 1 || quoted < 0x20 || quoted > 0x7e) return false;
    } else if (code < 0x20 || code > 0x7e || code === 0x22) return false;
  }
  return true;
}

/** RFC 5321 `sub-domain` (`Let-dig [Ldh-str]`), at most 63 characters (RFC 1035 §2.3.4). */
const isLabel = (label: string): boolean =>
  label.length >= 1 &&
  label.length <= 63 &&
  inTable(letDigTable, label.charCodeAt(0)) &&
  inTable(letDigTable, label.charCodeAt(label.length - 1)) &&
  allowed(label, ldhTable, false);

/**
 * RFC 5321 `Mailbox` (the JSON Schema `email` format; `idn-email`, RFC 6531, is another format, so non-ASCII is
 * refused): a `Dot-string` or `Quoted-string` local part of at most 64 characters, `@`, then a `Domain` of LDH labels
 * or an address literal `[IPv4]` / `[IPv6:…]`; at most 254 characters in all (RFC 5321 §4.5.3.1). A general
 * address literal (`[tag:…]`) is refused: IANA registers no tag besides `IPv6`.
 */
export function isFormEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64 || !(isDotString(local) || isQuotedString(local))) return false;
  if (domain.startsWith('[')) {
    if (!domain.endsWith(']')) return false;
    const literal = domain.slice(1, -1);
    return isDottedQuad(literal, isSnum) || (/^IPv6:/i.test(literal) && isSmtpIpv6(literal.slice(5)));
  }
  return domain.split('.').every(isLabel);
}

/** The checkers by validator-facing name, for the adapter to register. */
export const formFormatCheckers: Readonly<Record<string, (text: string) => boolean>> = {
  'schemaval-form-email': isFormEmail,
  'schemaval-form-uri': isFormUri,
  'schemaval-form-date': isFormDate,
  'schemaval-form-date-time': isFormDateTime,
};
