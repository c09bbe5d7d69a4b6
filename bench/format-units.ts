// Number formatting for the benchmark report.

/** `812 ns`, `4.31 µs`, `1.27 ms`: three significant digits. */
export function formatNs(ns: number): string {
  if (ns < 0) return `−${formatNs(-ns)}`;
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${precise(ns / 1_000)} µs`;
  return `${precise(ns / 1_000_000)} ms`;
}

/** A ratio as `1.12x`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

/** A relative spread as `±3%`. */
export function formatSpread(spread: number): string {
  return `±${(spread * 100).toFixed(spread < 0.1 ? 1 : 0)}%`;
}

/** `500 B`, `3.9 KB`, `46.8 KB` (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  return bytes < 1_024 ? `${bytes} B` : `${(bytes / 1_024).toFixed(1)} KB`;
}

function precise(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}
