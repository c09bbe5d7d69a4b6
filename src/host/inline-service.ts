import type { Engine } from '../engine/core/index.ts';
import type { ValidatorService } from '../protocol/validator-service.ts';
import { toValidatorErrorCode, ValidatorError } from './validator-error.ts';

/**
 * The `ValidatorService` in the calling thread, for hosts that cannot spawn workers. Same answers as worker
 * mode; only the static bounds protect it (no time budget: nothing can interrupt a synchronous validation).
 */
export function createInlineService(engine: Engine): ValidatorService {
  const guard = async <T>(work: () => T | Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string') throw error;
      throw new ValidatorError(toValidatorErrorCode(code), error instanceof Error ? error.message : String(error));
    }
  };
  return {
    compileTools: (tools) => guard(() => engine.compileTools(tools)),
    compile: (schema) =>
      guard(async () => {
        const { fingerprint, result } = await engine.compile(schema);
        return { fingerprint, refusal: result.ok ? null : result.refusal, warnings: result.ok ? result.schema.warnings : [] };
      }),
    validateArguments: (fingerprint, args) => guard(() => engine.validateArguments(fingerprint, args)),
    validateStructured: (fingerprint, content) => guard(() => engine.validateStructured(fingerprint, content)),
    validateElicitation: (schema, content) => guard(() => engine.validateElicitation(schema, content)),
    validate: (schema, instance) => guard(() => engine.validate(schema, instance)),
    validateJson: (schema, text) => guard(() => engine.validateJson(schema, text)),
    stats: () => guard(() => engine.stats()),
  };
}
