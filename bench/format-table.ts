// Plain-text tables for the benchmark report.

/** `left` for text columns, `right` for numbers. */
export type Align = 'left' | 'right';

/** Pads every cell to its column's width; the first row is the header, underlined. */
export function formatTable(rows: readonly (readonly string[])[], align: readonly Align[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  const line = (row: readonly string[]): string =>
    indent +
    row
      .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  if (header === undefined) return '';
  const rule = indent + widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}
