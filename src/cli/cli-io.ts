/** What the CLI touches of the outside world, injected so tests run it in process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a file, or standard input for `-`. */
  readonly readText: (file: string) => Promise<string>;
  /** True when standard input is a terminal (then reading it needs a hint). */
  readonly stdinIsTty: boolean;
}

/** Exit codes (DESIGN §5.1). */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage or input problem: exit 2 with this message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
