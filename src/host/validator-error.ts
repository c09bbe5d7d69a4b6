/** Stable codes of operational failures; validation outcomes are data, never errors. */
export type ValidatorErrorCode = 'TIMEOUT' | 'WORKER_CRASHED' | 'CLOSED' | 'UNKNOWN_FINGERPRINT' | 'INVALID_ARGUMENT' | 'INTERNAL';

/** An operational failure with a stable `code`. Check `error.code`, not `instanceof`. */
export class ValidatorError extends Error {
  override readonly name = 'ValidatorError';
  constructor(
    readonly code: ValidatorErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Maps a code that crossed a boundary as text back to a known one. */
export function toValidatorErrorCode(code: string): ValidatorErrorCode {
  const known: readonly string[] = ['TIMEOUT', 'WORKER_CRASHED', 'CLOSED', 'UNKNOWN_FINGERPRINT', 'INVALID_ARGUMENT'];
  return known.includes(code) ? (code as ValidatorErrorCode) : 'INTERNAL';
}
