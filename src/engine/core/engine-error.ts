/** Stable codes for operational failures (not validation outcomes, which are data). */
export type EngineErrorCode = 'UNKNOWN_FINGERPRINT' | 'INVALID_ARGUMENT';

/** An operational failure with a stable `code`; check the code, not the class. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}
