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
