import { formatIssue } from '../engine/issues/index.ts';
import { resolvePolicy } from '../engine/policy/index.ts';
import type { Validator } from '../host/create-validator.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import type { Policy } from '../protocol/policy.ts';
import { CliError, type CliIo, exitCodes } from './cli-io.ts';
import { jsonErrorMessage } from './json-error-message.ts';
import { readJsonFile, readText } from './read-json-file.ts';

export interface ValidateOptions {
  readonly schema: string;
  readonly instance: string;
  readonly json: boolean;
  /** Bounds from the policy flags, over the defaults. */
  readonly policy: Partial<Policy>;
}

/** `schemaval validate`: exit 0 valid, 1 invalid (one issue per line), 2 schema refused or usage. */
export async function validateCommand(
  open: (policy: Partial<Policy>) => Promise<Validator>,
  io: CliIo,
  options: ValidateOptions,
): Promise<number> {
  const policy = resolvePolicy(options.policy);
  const schema = await readJsonFile(io, options.schema, 'schema', { maxBytes: policy.maxSchemaBytes, maxDepth: policy.maxJsonDepth });
  if (!schema.ok) return report(io, options.json, { status: 'refused', refusal: { code: schema.code, message: schema.message } });
  const validator = await open(options.policy);
  const compiled = await validator.compile(schema.value);
  if (compiled.status === 'refused') return report(io, options.json, { status: 'refused', refusal: compiled.refusal });
  if (!options.json) for (const w of compiled.warnings) io.stderr(`warning ${w.code}: ${w.message}\n`);
  const text = await readText(io, options.instance, 'instance');
  const outcome = await withinBudget(policy, () =>
    validator.validateJson(compiled.fingerprint === '' ? (schema.value as object) : compiled.fingerprint, text),
  );
  if (outcome.status === 'invalid' && outcome.issues[0].keyword === 'json') {
    throw new CliError('invalid_json', jsonErrorMessage(options.instance, text, outcome.issues[0].message));
  }
  return report(io, options.json, outcome);
}

/**
 * Runs one validation; a `TIMEOUT` is an operational failure, not a verdict on the schema (docs/isolation.md): one
 * timeout never refuses it, and the error says which budget ran out.
 */
export async function withinBudget(policy: Readonly<Policy>, validation: () => Promise<ValidationOutcome>): Promise<ValidationOutcome> {
  try {
    return await validation();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'TIMEOUT') throw error;
    const message = `validation ran past the ${policy.timeBudgetMs} ms time budget and was stopped`;
    throw Object.assign(new Error(message), { code: 'TIMEOUT' });
  }
}

/**
 * Prints an outcome and returns its exit code: `valid` or one `$.path: message` line per issue on standard output,
 * a refusal on standard error as `REFUSED (code): message` (`refused`: what was refused, `schema refused` by
 * default); with `json`, the outcome itself as one line of JSON on standard output.
 */
export function report(io: CliIo, json: boolean, outcome: ValidationOutcome, refused = 'schema refused'): number {
  if (json) io.stdout(`${JSON.stringify(outcome)}\n`);
  if (outcome.status === 'refused') {
    if (!json) io.stderr(`${refused} (${outcome.refusal.code}): ${outcome.refusal.message}\n`);
    return exitCodes.usage;
  }
  if (outcome.status === 'valid') {
    if (!json) io.stdout('valid\n');
    return exitCodes.ok;
  }
  if (!json) io.stdout(outcome.issues.map((issue) => `${formatIssue(issue)}\n`).join(''));
  return exitCodes.failed;
}
