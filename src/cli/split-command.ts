/**
 * Splits `--stdio "CMD ARGS"` into a program and its arguments the way a POSIX shell splits words, without running
 * a shell (no expansion, no pipes): blanks separate words, '…' is literal, "…" honours \" and \\, and a backslash
 * outside quotes escapes the next character. Returns undefined for an unterminated quote or trailing backslash.
 */
export function splitCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === ' ' || char === '\t' || char === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += line.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      for (i++; i < line.length && line[i] !== '"'; i++) {
        const next = line[i + 1];
        if (line[i] === '\\' && (next === '"' || next === '\\')) i++;
        word += line[i];
      }
      if (i >= line.length) return undefined;
    } else if (char === '\\') {
      if (i + 1 >= line.length) return undefined;
      word += line[++i];
    } else {
      word += char;
    }
  }
  if (inWord) words.push(word);
  return words;
}
