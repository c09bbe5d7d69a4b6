/**
 * A `\p{…}` of an ECMA-262 pattern as RE2 can say it: RE2 property names (`\p{Lu}`), or code point ranges.
 * `undefined` when RE2 has no equivalent (then the pattern is refused, never approximated).
 */
export type TranslatedProperty =
  | { readonly kind: 'names'; readonly names: readonly string[] }
  | { readonly kind: 'ranges'; readonly ranges: readonly (readonly [number, number])[] };

/** ECMA General_Category long names and aliases → the short names RE2 knows. */
const categories: Record<string, readonly string[]> = {
  L: ['L'],
  Letter: ['L'],
  LC: ['Lu', 'Ll', 'Lt'],
  Cased_Letter: ['Lu', 'Ll', 'Lt'],
  Lu: ['Lu'],
  Uppercase_Letter: ['Lu'],
  Ll: ['Ll'],
  Lowercase_Letter: ['Ll'],
  Lt: ['Lt'],
  Titlecase_Letter: ['Lt'],
  Lm: ['Lm'],
  Modifier_Letter: ['Lm'],
  Lo: ['Lo'],
  Other_Letter: ['Lo'],
  M: ['M'],
  Mark: ['M'],
  Combining_Mark: ['M'],
  Mn: ['Mn'],
  Nonspacing_Mark: ['Mn'],
  Mc: ['Mc'],
  Spacing_Mark: ['Mc'],
  Me: ['Me'],
  Enclosing_Mark: ['Me'],
  N: ['N'],
  Number: ['N'],
  Nd: ['Nd'],
  Decimal_Number: ['Nd'],
  digit: ['Nd'],
  Nl: ['Nl'],
  Letter_Number: ['Nl'],
  No: ['No'],
  Other_Number: ['No'],
  P: ['P'],
  Punctuation: ['P'],
  punct: ['P'],
  Pc: ['Pc'],
  Connector_Punctuation: ['Pc'],
  Pd: ['Pd'],
  Dash_Punctuation: ['Pd'],
  Ps: ['Ps'],
  Open_Punctuation: ['Ps'],
  Pe: ['Pe'],
  Close_Punctuation: ['Pe'],
  Pi: ['Pi'],
  Initial_Punctuation: ['Pi'],
  Pf: ['Pf'],
  Final_Punctuation: ['Pf'],
  Po: ['Po'],
  Other_Punctuation: ['Po'],
  S: ['S'],
  Symbol: ['S'],
  Sm: ['Sm'],
  Math_Symbol: ['Sm'],
  Sc: ['Sc'],
  Currency_Symbol: ['Sc'],
  Sk: ['Sk'],
  Modifier_Symbol: ['Sk'],
  So: ['So'],
  Other_Symbol: ['So'],
  Z: ['Z'],
  Separator: ['Z'],
  Zs: ['Zs'],
  Space_Separator: ['Zs'],
  Zl: ['Zl'],
  Line_Separator: ['Zl'],
  Zp: ['Zp'],
  Paragraph_Separator: ['Zp'],
  Cc: ['Cc'],
  Control: ['Cc'],
  cntrl: ['Cc'],
  Cf: ['Cf'],
  Format: ['Cf'],
  Cs: ['Cs'],
  Surrogate: ['Cs'],
  Co: ['Co'],
  Private_Use: ['Co'],
  // Not here: C / Other / Cn / Unassigned. RE2's `C` leaves out unassigned code points, ECMA's includes them.
};

/** Binary properties that are plain ranges. */
const binaries: Record<string, readonly (readonly [number, number])[]> = {
  Any: [[0, 0x10ffff]],
  ASCII: [[0, 0x7f]],
  ASCII_Hex_Digit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
  AHex: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/**
 * The emoji properties zod 4's `z.emoji()` uses (docs/decisions/019-lookaround.md), which RE2 lacks: code point
 * ranges in hex, read from Node 20's tables (Unicode 15.1). `test/engine/patterns/engine-lookaround.test.ts` compares them with the
 * runtime's own `\p{…}` on every code point, so a runtime with other tables fails the test rather than differ.
 */
const emojiRanges: Record<string, string> = {
  Extended_Pictographic:
    'a9 ae 203c 2049 2122 2139 2194-2199 21a9-21aa 231a-231b 2328 23cf 23e9-23f3 23f8-23fa 24c2 25aa-25ab ' +
    '25b6 25c0 25fb-25fe 2600-2604 260e 2611 2614-2615 2618 261d 2620 2622-2623 2626 262a 262e-262f ' +
    '2638-263a 2640 2642 2648-2653 265f-2660 2663 2665-2666 2668 267b 267e-267f 2692-2697 2699 269b-269c ' +
    '26a0-26a1 26a7 26aa-26ab 26b0-26b1 26bd-26be 26c4-26c5 26c8 26ce-26cf 26d1 26d3-26d4 26e9-26ea ' +
    '26f0-26f5 26f7-26fa 26fd 2702 2705 2708-270d 270f 2712 2714 2716 271d 2721 2728 2733-2734 2744 2747 ' +
    '274c 274e 2753-2755 2757 2763-2764 2795-2797 27a1 27b0 27bf 2934-2935 2b05-2b07 2b1b-2b1c 2b50 2b55 ' +
    '3030 303d 3297 3299 1f004 1f02c-1f02f 1f094-1f09f 1f0af-1f0b0 1f0c0 1f0cf-1f0d0 1f0f6-1f0ff ' +
    '1f170-1f171 1f17e-1f17f 1f18e 1f191-1f19a 1f1ae-1f1e5 1f201-1f20f 1f21a 1f22f 1f232-1f23a ' +
    '1f23c-1f23f 1f249-1f25f 1f266-1f321 1f324-1f393 1f396-1f397 1f399-1f39b 1f39e-1f3f0 1f3f3-1f3f5 ' +
    '1f3f7-1f3fa 1f400-1f4fd 1f4ff-1f53d 1f549-1f54e 1f550-1f567 1f56f-1f570 1f573-1f57a 1f587 ' +
    '1f58a-1f58d 1f590 1f595-1f596 1f5a4-1f5a5 1f5a8 1f5b1-1f5b2 1f5bc 1f5c2-1f5c4 1f5d1-1f5d3 ' +
    '1f5dc-1f5de 1f5e1 1f5e3 1f5e8 1f5ef 1f5f3 1f5fa-1f64f 1f680-1f6c5 1f6cb-1f6d2 1f6d5-1f6e5 1f6e9 ' +
    '1f6eb-1f6f0 1f6f3-1f6ff 1f7da-1f7ff 1f80c-1f80f 1f848-1f84f 1f85a-1f85f 1f888-1f88f 1f8ae-1f8af ' +
    '1f8bc-1f8bf 1f8c2-1f8cf 1f8d9-1f8ff 1f90c-1f93a 1f93c-1f945 1f947-1f9ff 1fa58-1fa5f 1fa6e-1faff ' +
    '1fc00-1fffd',
  Emoji_Component: '23 2a 30-39 200d 20e3 fe0f 1f1e6-1f1ff 1f3fb-1f3ff 1f9b0-1f9b3 e0020-e007f',
  Regional_Indicator: '1f1e6-1f1ff',
};

for (const [name, text] of Object.entries(emojiRanges)) {
  const ranges = text.split(' ').map((item): [number, number] => {
    const [lo, hi = lo] = item.split('-').map((hex) => Number.parseInt(hex, 16)) as [number, number?];
    return [lo, hi];
  });
  binaries[name] = ranges;
}
binaries.ExtPict = binaries.Extended_Pictographic as readonly (readonly [number, number])[];
binaries.EComp = binaries.Emoji_Component as readonly (readonly [number, number])[];
binaries.RI = binaries.Regional_Indicator as readonly (readonly [number, number])[];

/** Four-letter script codes ECMA accepts and RE2 does not, for the scripts real schemas use. */
const scriptCodes: Record<string, string> = {
  Arab: 'Arabic',
  Armn: 'Armenian',
  Beng: 'Bengali',
  Cyrl: 'Cyrillic',
  Deva: 'Devanagari',
  Geor: 'Georgian',
  Grek: 'Greek',
  Gujr: 'Gujarati',
  Hang: 'Hangul',
  Hani: 'Han',
  Hebr: 'Hebrew',
  Hira: 'Hiragana',
  Kana: 'Katakana',
  Khmr: 'Khmer',
  Knda: 'Kannada',
  Latn: 'Latin',
  Mlym: 'Malayalam',
  Taml: 'Tamil',
  Telu: 'Telugu',
  Thai: 'Thai',
  Tibt: 'Tibetan',
  Zyyy: 'Common',
  Zinh: 'Inherited',
  Qaai: 'Inherited',
};

/**
 * Translates the body of `\p{body}` (already accepted by the native `u`-flag parser). Scripts are passed on by
 * their long name; `isScript` tells whether RE2 knows that name (it is checked by compiling).
 */
export function translateProperty(body: string, isScript: (name: string) => boolean): TranslatedProperty | undefined {
  const equals = body.indexOf('=');
  if (equals < 0) {
    const names = categories[body];
    if (names !== undefined) return { kind: 'names', names };
    const ranges = binaries[body];
    return ranges === undefined ? undefined : { kind: 'ranges', ranges };
  }
  const name = body.slice(0, equals);
  const value = body.slice(equals + 1);
  if (name === 'General_Category' || name === 'gc') {
    const names = categories[value];
    return names === undefined ? undefined : { kind: 'names', names };
  }
  if (name === 'Script' || name === 'sc') {
    const script = scriptCodes[value] ?? value;
    return /^[A-Z][A-Za-z_]*$/.test(script) && isScript(script) ? { kind: 'names', names: [script] } : undefined;
  }
  // Script_Extensions and the remaining binary properties have no RE2 equivalent.
  return undefined;
}
