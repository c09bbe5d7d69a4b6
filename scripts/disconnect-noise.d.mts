import type { Transform } from 'node:stream';

/** Whether a line (with or without colours) is workerd's harmless broken-pipe error. */
export function isBrokenPipeLine(line: string): boolean;

/** Drops the broken-pipe block (the line, its blank lines and its `stack:` line) from lines of output. */
export function dropBrokenPipes(lines: readonly string[], state?: { skipping: boolean }): string[];

/** A stream that passes text through line by line, without the broken-pipe blocks. */
export function withoutBrokenPipes(): Transform;
