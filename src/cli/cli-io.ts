/** What the CLI touches of the outside world, injected so tests run it in process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a file, or standard input for `-`. */
  readonly readText: (file: string) => Promise<string>;
  /** True when standard input is a terminal (then reading it needs a hint). */
  readonly stdinIsTty: boolean;
  /** True when standard error is a terminal (then `lint` shows its progress there); absent: not one. */
  readonly stderrIsTty?: boolean;
}

/** Exit codes (docs/cli.md). */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * Stable codes of the CLI's own errors (`{"error":{"code","message"}}` with `--json`); operational failures of the
 * validator keep their own codes (`TIMEOUT`, `WORKER_CRASHED`, …). Never renamed once shipped.
 */
export type CliErrorCode =
  | 'usage'
  | 'file_not_found'
  | 'file_unreadable'
  | 'invalid_json'
  | 'too_large'
  | 'too_deep'
  | 'invalid_tools_file'
  | 'invalid_url'
  | 'connect_failed'
  | 'server_exited'
  | 'server_timeout'
  | 'protocol_error'
  | 'unknown_tool';

/** A problem with the invocation or its input: exit 2 with a stable code and a message in words. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: CliErrorCode;
  /** For `usage`: which command's usage to print (undefined: the overview). */
  readonly command: string | undefined;
  /** For `usage`: the message is the whole story (it names the help to read), so no usage lines follow. */
  readonly brief: boolean;

  constructor(code: CliErrorCode, message: string, command?: string, { brief = false }: { brief?: boolean } = {}) {
    super(message);
    this.code = code;
    this.command = command;
    this.brief = brief;
  }
}

/** A usage error: exit 2 with the message and the command's usage line. */
export const usageError = (message: string, command?: string): CliError => new CliError('usage', message, command);
