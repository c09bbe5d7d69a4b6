/**
 * `FILE:LINE:COLUMN: not valid JSON: what`, from a parse error that ends in `at position N` (lossless-json's
 * messages and parseJson's duplicate-key message do). LINE and COLUMN count from 1; a column counts characters
 * (code points), and `\n`, `\r\n` or a lone `\r` ends a line. Without a position: `FILE: not valid JSON: what`.
 */
export function jsonErrorMessage(file: string, text: string, message: string): string {
  const name = file === '-' ? '<stdin>' : file;
  const match = /^(?:not valid JSON: )?(.*?)(?: at position (\d+))?$/s.exec(message);
  const detail = printable(sentenceCase(match?.[1] ?? message));
  const position = match?.[2] === undefined ? undefined : Number(match[2]);
  if (position === undefined || position > text.length) return `${name}: not valid JSON: ${detail}`;
  const { line, column } = lineAndColumn(text, position);
  return `${name}:${line}:${column}: not valid JSON: ${detail}`;
}

/** The 1-based line and column of a UTF-16 offset into `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < offset; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is one character: count its high half only.
    if (code < 0xdc00 || code > 0xdfff || i === lineStart || !isHigh(text.charCodeAt(i - 1))) column++;
  }
  return { line, column };
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** lossless-json starts its messages with a capital ("Object value expected…"); keep `JSON` as is. */
const sentenceCase = (text: string): string => (/^[A-Z][a-z]/.test(text) ? text[0]?.toLowerCase() + text.slice(1) : text);

/** Control characters quoted from the input (`Invalid character '\u0001'`) are shown escaped, not sent to the terminal. */
function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}
