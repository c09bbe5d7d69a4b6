// Whether a command printed what the docs show under it. A line that is only `…` stands for lines left out; `…`
// inside a line for text left out. Without a `…` line the docs show all of it: no other line may appear.

/** A shown line as a pattern: literal text, `…` matching anything. */
function linePattern(shown: string): RegExp {
  const parts = shown
    .trim()
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');

/** What is missing or extra, in words; empty when the output fits. Stdout and stderr each keep their own order. */
export function outputProblems(shown: readonly string[], stdout: string, stderr: string): string[] {
  const wanted = shown.filter((line) => line.trim() !== '');
  if (wanted.length === 0) return [];
  const streams = [linesOf(stdout), linesOf(stderr)];
  const next = [0, 0];
  const used = streams.map(() => new Set<number>());
  const problems: string[] = [];
  for (const line of wanted) {
    if (line.trim() === '…') continue;
    const pattern = linePattern(line);
    let found = false;
    for (const [s, lines] of streams.entries()) {
      const at = lines.findIndex((candidate, index) => index >= (next[s] as number) && pattern.test(candidate.trim()));
      if (at === -1) continue;
      next[s] = at + 1;
      used[s]?.add(at);
      found = true;
      break;
    }
    if (!found) problems.push(`missing: ${line}`);
  }
  if (!wanted.some((line) => line.trim() === '…')) {
    for (const [s, lines] of streams.entries()) {
      for (const [index, line] of lines.entries()) if (!used[s]?.has(index)) problems.push(`not shown in the docs: ${line}`);
    }
  }
  return problems;
}
