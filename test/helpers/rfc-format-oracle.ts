// An independent strict checker for the elicitation formats `uri` and `email`, written straight from the ABNF (one
// regex per rule, composed the way the RFC composes them), and a seeded generator of near-miss values built from the
// same ABNF pieces. It shares no code with src/engine/forms/form-formats.ts: the differential test
// (test/engine/forms/engine-form-formats-strict.test.ts) checks that both answer the same on every generated string.

// RFC 5234 Appendix B.1 core rules. ABNF quoted strings are case-insensitive ("v", "IPv6:").
const ALPHA = '[A-Za-z]';
const DIGIT = '[0-9]';
const HEXDIG = '[0-9A-Fa-f]';

// ---- RFC 3986 Appendix A ----
const unreserved = '[A-Za-z0-9\\-._~]';
const pctEncoded = `%${HEXDIG}${HEXDIG}`;
const subDelims = "[!$&'()*+,;=]";
const pchar = `(?:${unreserved}|${pctEncoded}|${subDelims}|[:@])`;
const scheme = `${ALPHA}(?:${ALPHA}|${DIGIT}|[+\\-.])*`;
const userinfo = `(?:${unreserved}|${pctEncoded}|${subDelims}|:)*`;
const h16 = `${HEXDIG}{1,4}`;
const decOctet = `(?:${DIGIT}|[1-9]${DIGIT}|1${DIGIT}{2}|2[0-4]${DIGIT}|25[0-5])`;
const IPv4address = `${decOctet}\\.${decOctet}\\.${decOctet}\\.${decOctet}`;
const ls32 = `(?:${h16}:${h16}|${IPv4address})`;
const IPv6address = `(?:${[
  `(?:${h16}:){6}${ls32}`,
  `::(?:${h16}:){5}${ls32}`,
  `(?:${h16})?::(?:${h16}:){4}${ls32}`,
  `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
  `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
  `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
  `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
  `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
  `(?:(?:${h16}:){0,6}${h16})?::`,
].join('|')})`;
const IPvFuture = `[vV]${HEXDIG}+\\.(?:${unreserved}|${subDelims}|:)+`;
const IPliteral = `\\[(?:${IPv6address}|${IPvFuture})\\]`; // RFC 3986 only: no RFC 6874 zone id
const regName = `(?:${unreserved}|${pctEncoded}|${subDelims})*`;
const host = `(?:${IPliteral}|${IPv4address}|${regName})`;
const port = `${DIGIT}*`;
const authority = `(?:${userinfo}@)?${host}(?::${port})?`;
const segment = `${pchar}*`;
const segmentNz = `${pchar}+`;
const pathAbempty = `(?:/${segment})*`;
const pathAbsolute = `/(?:${segmentNz}(?:/${segment})*)?`;
const pathRootless = `${segmentNz}(?:/${segment})*`;
const pathEmpty = '';
const hierPart = `(?://${authority}${pathAbempty}|${pathAbsolute}|${pathRootless}|${pathEmpty})`;
const query = `(?:${pchar}|[/?])*`;
const fragment = `(?:${pchar}|[/?])*`;
const URI = new RegExp(`^${scheme}:${hierPart}(?:\\?${query})?(?:#${fragment})?$`);

/** RFC 3986 `URI`. */
export const referenceUri = (text: string): boolean => URI.test(text);

// ---- RFC 5321 §4.1.2, §4.1.3 ----
const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]"; // RFC 5322 §3.2.3
const Atom = `${atext}+`;
const DotString = `${Atom}(?:\\.${Atom})*`;
const qtextSMTP = '[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]';
const quotedPairSMTP = '\\\\[\\x20-\\x7E]';
const QcontentSMTP = `(?:${qtextSMTP}|${quotedPairSMTP})`;
const QuotedString = `"${QcontentSMTP}*"`;
const LocalPart = `(?:${DotString}|${QuotedString})`;
const LetDig = '[A-Za-z0-9]';
// sub-domain = Let-dig [Ldh-str], Ldh-str = *( ALPHA / DIGIT / "-" ) Let-dig; at most 63 octets (RFC 1035 §2.3.4).
const subDomain = `${LetDig}(?:[A-Za-z0-9-]{0,61}${LetDig})?`;
const Domain = `${subDomain}(?:\\.${subDomain})*`;
const Snum = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])'; // 1*3DIGIT "representing a decimal integer value in the range 0 through 255"
const IPv4AddressLiteral = `${Snum}(?:\\.${Snum}){3}`;
const IPv6hex = `${HEXDIG}{1,4}`;
/** `n` IPv6-hex joined by ":" (none for 0). */
const hexGroups = (n: number): string => (n === 0 ? '' : `${IPv6hex}(?::${IPv6hex}){${n - 1}}`);
const IPv6full = `${IPv6hex}(?::${IPv6hex}){7}`;
// IPv6-comp = [IPv6-hex *5(":" IPv6-hex)] "::" [IPv6-hex *5(":" IPv6-hex)]; "No more than 6 groups in addition
// to the "::" may be present": every (head, tail) split with head + tail <= 6.
const splits = (max: number, build: (head: number, tail: number) => string): string => {
  const forms: string[] = [];
  for (let head = 0; head <= max; head++) for (let tail = 0; head + tail <= max; tail++) forms.push(build(head, tail));
  return `(?:${forms.join('|')})`;
};
const IPv6comp = splits(6, (head, tail) => `${hexGroups(head)}::${hexGroups(tail)}`);
const IPv6v4full = `${IPv6hex}(?::${IPv6hex}){5}:${IPv4AddressLiteral}`;
// IPv6v4-comp = [IPv6-hex *3(":" IPv6-hex)] "::" [IPv6-hex *3(":" IPv6-hex) ":"] IPv4-address-literal; "No more
// than 4 groups in addition to the "::" and IPv4-address-literal may be present".
const IPv6v4comp = splits(4, (head, tail) => `${hexGroups(head)}::${tail === 0 ? '' : `${hexGroups(tail)}:`}${IPv4AddressLiteral}`);
const IPv6addr = `(?:${IPv6full}|${IPv6comp}|${IPv6v4full}|${IPv6v4comp})`;
const IPv6AddressLiteral = `[Ii][Pp][Vv]6:${IPv6addr}`;
// General-address-literal (Standardized-tag ":" 1*dcontent) is left out on purpose: IANA's Address Literal Tags
// registry holds only "IPv6", whose content has the grammar above.
const addressLiteral = `\\[(?:${IPv4AddressLiteral}|${IPv6AddressLiteral})\\]`;
const Mailbox = new RegExp(`^(${LocalPart})@(?:${Domain}|${addressLiteral})$`);

/** RFC 5321 `Mailbox`, within §4.5.3.1's sizes: a local part of at most 64 octets, a path of at most 256 (<…>). */
export function referenceEmail(text: string): boolean {
  if (text.length > 254) return false;
  const match = Mailbox.exec(text);
  return match !== null && (match[1] ?? '').length <= 64;
}

// ---- a seeded generator of near misses ----

/** mulberry32: a small seeded PRNG. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (random: Random, p: number): boolean => random() < p;
const int = (random: Random, max: number): number => Math.floor(random() * (max + 1));

/** Characters that look like, or sit next to, grammar characters: what a person pastes by mistake. */
export const oddCharacters: readonly string[] = [
  '\u00a0', // NBSP
  '\u2028', // LINE SEPARATOR
  '\u2029',
  '\u200b', // ZERO WIDTH SPACE
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\ud83d', // half of an emoji
  '🙂',
  '😀',
  'é',
  'e\u0301',
  'ı', // dotless i
  '\u0430', // Cyrillic a
  '\u0435', // Cyrillic e
  '\u03bf', // Greek omicron
  '\uff1a', // fullwidth colon
  '\uff0e', // fullwidth full stop
  '\uff20', // fullwidth commercial at
  '\uff05', // fullwidth percent
  '\uff3b', // fullwidth [
  '\uff3d', // fullwidth ]
  '\uff11', // fullwidth 1
  '\u0661', // Arabic-Indic 1
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  '"',
  '\\',
  '<',
  '>',
  '^',
  '`',
  '{',
  '|',
  '}',
  '[',
  ']',
  '%',
  '@',
  ':',
  '#',
  '?',
  '/',
];

/** One random edit (insert, delete, replace or double a character), or none. */
function mutate(random: Random, text: string): string {
  if (!chance(random, 0.35)) return text;
  const at = int(random, text.length);
  switch (int(random, 3)) {
    case 0:
      return text.slice(0, at) + pick(random, oddCharacters) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + pick(random, oddCharacters) + text.slice(at + 1);
    default:
      return text.slice(0, at) + text.charAt(at) + text.slice(at);
  }
}

const hexDigits = '0123456789abcdefABCDEF';
function hexGroup(random: Random): string {
  if (chance(random, 0.05)) return '';
  if (chance(random, 0.05)) return pick(random, ['g', '12345', '0x1', 'fffff', '1g']);
  let group = '';
  for (let i = 0, n = 1 + int(random, 3); i < n; i++) group += pick(random, [...hexDigits]);
  return group;
}

function octet(random: Random): string {
  return chance(random, 0.85)
    ? pick(random, ['0', '1', '9', '10', '99', '100', '199', '200', '249', '250', '255'])
    : pick(random, ['256', '300', '01', '001', '010', '00', '000', '0255', '1000', '', 'a', '-1', '1 ']);
}

/** A dotted quad, usually four octets, sometimes three or five. */
export function ipv4(random: Random): string {
  const count = chance(random, 0.85) ? 4 : pick(random, [3, 5]);
  return Array.from({ length: count }, () => octet(random)).join('.');
}

/** An IPv6 text form or a near miss: `::` in every position, an embedded IPv4 anywhere, stray colons, zone ids. */
export function ipv6(random: Random): string {
  const count = int(random, 9);
  const groups = Array.from({ length: count }, () => hexGroup(random));
  if (chance(random, 0.3) && count > 0) {
    // An IPv4 part: usually last, sometimes anywhere.
    const at = chance(random, 0.7) ? count - 1 : int(random, count - 1);
    groups[at] = ipv4(random);
  }
  let text = groups.join(':');
  if (chance(random, 0.75)) {
    // `::` at a group boundary (every position, start and end included).
    const boundary = int(random, count);
    const head = groups.slice(0, boundary).join(':');
    const tail = groups.slice(boundary).join(':');
    text = `${head}::${tail}`;
    if (chance(random, 0.05)) text = `${text}::`;
  }
  if (chance(random, 0.1)) text = chance(random, 0.5) ? `${ipv4(random)}::${text}` : `${text}:${ipv4(random)}::`;
  if (chance(random, 0.04)) text = `:${text}`;
  if (chance(random, 0.04)) text = `${text}:`;
  if (chance(random, 0.08)) text += pick(random, ['%25eth0', '%eth0', '%25', '%251', '%25%41', '%2', '%25en0%']);
  return mutate(random, text);
}

/** An `IPvFuture` or a near miss: the `v`, the hex version, the dot, and the tail each sometimes wrong. */
export function ipvFuture(random: Random): string {
  const v = pick(random, ['v', 'v', 'V', 'w', '']);
  const version = pick(random, ['1', 'F', 'a1', '', 'g', '12']);
  const dot = chance(random, 0.9) ? '.' : pick(random, ['', ':', '..']);
  const tail = Array.from({ length: int(random, 4) }, () =>
    pick(random, [
      'a',
      'Z',
      '0',
      '-',
      '.',
      '_',
      '~',
      '!',
      '$',
      '&',
      "'",
      '(',
      ')',
      '*',
      '+',
      ',',
      ';',
      '=',
      ':',
      '%41',
      '%4',
      '@',
      '/',
      '[',
    ]),
  ).join('');
  return mutate(random, `${v}${version}${dot}${tail}`);
}

function pctPiece(random: Random): string {
  return chance(random, 0.7) ? pick(random, ['%41', '%7e', '%7E', '%00']) : pick(random, ['%4', '%', '%zz', '%g1', '%%41', '%41%']);
}

function segmentText(random: Random): string {
  return Array.from({ length: int(random, 4) }, () =>
    pick(random, ['a', 'b1', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', pctPiece(random)]),
  ).join('');
}

function hostText(random: Random): string {
  switch (int(random, 5)) {
    case 0:
      return `[${ipv6(random)}]`;
    case 1:
      return `[${ipvFuture(random)}]`;
    case 2:
      return ipv4(random);
    case 3:
      return pick(random, ['[', ']', '[]', '[::1', '::1]', '[[::1]]', '[::1]x', '[1.2.3.4]']);
    default:
      return pick(random, [
        'example.com',
        'localhost',
        'a-b.c_d~e',
        'h%41st',
        '',
        'x!$&',
        'exa%mple.com',
        'münchen.de',
        'xn--mnchen-3ya.de',
      ]);
  }
}

/** A URI or a near miss, built from scheme, userinfo, host, port, path, query and fragment pieces. */
export function uriCandidate(random: Random): string {
  const schemeText = chance(random, 0.9)
    ? pick(random, ['http', 'https', 'urn', 'mailto', 'a+b-c.d', 'H', 'a'])
    : pick(random, ['1http', 'ht_tp', '', 'ht tp', '+a']);
  let text = `${schemeText}:`;
  if (chance(random, 0.75)) {
    const user = pick(random, ['', '', 'u@', 'u:p@', 'u%41@', 'u%4@', 'u@@', '@', 'ü@', '[u]@', ':@']);
    const portText = pick(random, ['', '', ':', ':80', ':8a', ':-1', ':\u0661', '::80', ':80:']);
    text += `//${user}${hostText(random)}${portText}`;
    for (let i = int(random, 2); i > 0; i--) text += `/${segmentText(random)}`;
  } else {
    text += pick(random, ['', '/', '/a', 'a', 'isbn:0451450523', 'a@b.c', '/a//b', 'a/b', '[x]', '%41']);
    text += segmentText(random);
  }
  if (chance(random, 0.3)) text += `?${segmentText(random)}${pick(random, ['', '/', '?', '?/'])}`;
  if (chance(random, 0.3)) text += `#${segmentText(random)}${pick(random, ['', '/', '?', '#'])}`;
  return mutate(random, text);
}

function atom(random: Random): string {
  return Array.from({ length: 1 + int(random, 3) }, () => pick(random, [...'aZ09', ...`!#$%&'*+-/=?^_\`{|}~`])).join('');
}

function localText(random: Random): string {
  if (chance(random, 0.3)) {
    // Quoted-string pieces: qtext, quoted pairs, and the characters that need quoting.
    const inner = Array.from({ length: int(random, 5) }, () =>
      pick(random, ['a', ' ', '@', '.', '(', ',', '\\"', '\\\\', '\\a', '\\ ', '"', '\\', '\t', '\\\t', '\u007f', '\\\u00e9']),
    ).join('');
    return pick(random, [`"${inner}"`, `"${inner}`, `${inner}"`, `"${inner}"a`]);
  }
  const atoms = Array.from({ length: 1 + int(random, 2) }, () => atom(random));
  const joined = atoms.join(chance(random, 0.9) ? '.' : pick(random, ['..', '']));
  return pick(random, [joined, joined, joined, `.${joined}`, `${joined}.`, '', 'a'.repeat(64), 'a'.repeat(65)]);
}

function labelText(random: Random): string {
  return pick(random, ['a', 'example', 'b-c', 'a1', '1a', '-a', 'a-', 'a--b', 'x_y', '0', 'xn--ls8h', 'a'.repeat(63), 'a'.repeat(64), '']);
}

function domainText(random: Random): string {
  switch (int(random, 5)) {
    case 0:
      return `[${pick(random, ['IPv6:', 'ipv6:', 'IPV6:', 'IPv6', 'IPv4:', ''])}${ipv6(random)}]`;
    case 1:
      return `[${ipv4(random)}]`;
    case 2:
      return pick(random, ['[]', '[IPv6:]', '[tag:text]', '[x-tag:a b]', '[IPv6:1.2.3.4::]', '[127.0.0.1', '127.0.0.1]', '[[1.2.3.4]]']);
    default: {
      const labels = Array.from({ length: 1 + int(random, 2) }, () => labelText(random)).join('.');
      return chance(random, 0.1) ? `${labels}.` : labels;
    }
  }
}

/** An email address or a near miss: dot-strings, quoted strings, LDH labels and address literals. */
export function emailCandidate(random: Random): string {
  const at = chance(random, 0.95) ? '@' : pick(random, ['', '@@', '\uff20']);
  return mutate(random, `${localText(random)}${at}${domainText(random)}`);
}
