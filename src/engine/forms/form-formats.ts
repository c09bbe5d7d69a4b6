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

// RFC 3986 §2–§3 character classes (pct-encoded handled separately).
const unreserved = /[A-Za-z0-9\-._~]/;
const subDelims = /[!$&'()*+,;=]/;
const hex = /^[0-9A-Fa-f]$/;

/** Every character is allowed by `extra` or unreserved/sub-delims, and every `%` starts a valid escape. */
function allowed(text: string, extra: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '%') {
      if (!hex.test(text.charAt(i + 1)) || !hex.test(text.charAt(i + 2))) return false;
      i += 2;
    } else if (!unreserved.test(c) && !subDelims.test(c) && !extra.includes(c)) return false;
  }
  return true;
}

const scheme = /^[A-Za-z][A-Za-z0-9+\-.]*$/;

/**
 * RFC 3986 `URI` (absolute, a fragment allowed): a scheme; an authority with an optional userinfo, a host (a
 * registered name, IPv4, or an IPv6/IPvFuture literal — the only place brackets may appear) and a numeric port;
 * then path, query and fragment characters.
 */
export function isFormUri(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon < 1 || !scheme.test(text.slice(0, colon))) return false;
  let rest = text.slice(colon + 1);
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    if (!allowed(rest.slice(hash + 1), ':@/?')) return false;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  if (question >= 0) {
    if (!allowed(rest.slice(question + 1), ':@/?')) return false;
    rest = rest.slice(0, question);
  }
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash >= 0 ? rest.slice(2, slash) : rest.slice(2);
    path = slash >= 0 ? rest.slice(slash) : '';
    if (!isAuthority(authority)) return false;
  }
  return allowed(path, ':@/');
}

function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !allowed(authority.slice(0, at), ':')) return false;
  const hostPort = authority.slice(at + 1);
  let host = hostPort;
  let port = '';
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return false;
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return false;
    port = after.slice(1);
    host = hostPort.slice(1, close);
    if (!isIpv6(host) && !isIpFuture(host)) return false;
  } else {
    const portColon = hostPort.indexOf(':');
    if (portColon >= 0) {
      host = hostPort.slice(0, portColon);
      port = hostPort.slice(portColon + 1);
    }
    if (!allowed(host, '')) return false;
  }
  return /^\d*$/.test(port);
}

const ipv4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const hextet = /^[0-9A-Fa-f]{1,4}$/;

/** RFC 4291 §2.2 text form: eight hextets, `::` once for a run of zeros, an IPv4 tail allowed. */
export function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): string[] | undefined => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return false;
  const all = [...head, ...tail];
  let count = all.length;
  const last = all[all.length - 1];
  if (last?.includes('.')) {
    if (!ipv4.test(last)) return false;
    all.pop();
    count++;
  }
  if (!all.every((group) => hextet.test(group))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

const isIpFuture = (text: string): boolean => /^[Vv][0-9A-Fa-f]+\./.test(text) && allowed(text.slice(text.indexOf('.') + 1), ':');

const atext = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]/;
/** A host-name label: letters, digits and inner hyphens, 1–63 characters (non-ASCII letters allowed, RFC 5890). */
function isLabel(part: string): boolean {
  if (part.length === 0 || part.length > 63 || part.startsWith('-') || part.endsWith('-')) return false;
  for (const c of part) if (!/[A-Za-z0-9-]/.test(c) && c.charCodeAt(0) < 0x80) return false;
  return true;
}

/**
 * A reasonable email address (RFC 5322 `addr-spec` without quoted local parts or comments): a dot-atom local
 * part and a host name of LDH labels or an address literal. Non-ASCII letters are allowed (RFC 6531).
 */
export function isFormEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at < 1 || text.length > 254) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64) return false;
  for (const part of local.split('.')) {
    if (part === '') return false;
    for (const c of part) if (!atext.test(c) && c.charCodeAt(0) < 0x80) return false;
  }
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return ipv4.test(literal) || (/^IPv6:/i.test(literal) && isIpv6(literal.slice(5)));
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
