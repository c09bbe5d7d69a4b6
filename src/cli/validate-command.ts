import type { Engine } from '../engine/create-engine.ts';
import { formatIssue } from '../engine/format-issue.ts';
import type { ValidationOutcome } from '../protocol/outcome.ts';
import { type CliIo, exitCodes, UsageError } from './cli-io.ts';
import { readJsonFile, readText } from './read-json-file.ts';

export interface ValidateOptions {
  readonly schema: string;
  readonly instance: string;
  readonly json: boolean;
}

/** `schemaval validate`: exit 0 valid, 1 invalid (one issue per line), 2 schema refused or usage. */
export async function validateCommand(engine: Engine, io: CliIo, options: ValidateOptions): Promise<number> {
  const { policy } = engine;
  const schema = await readJsonFile(io, options.schema, 'schema', { maxBytes: policy.maxSchemaBytes, maxDepth: policy.maxJsonDepth });
  if (!schema.ok) return report(io, options.json, { refused: { code: schema.code, message: schema.message } });
  const compiled = await engine.compile(schema.value);
  if (!compiled.result.ok) return report(io, options.json, { refused: compiled.result.refusal });
  if (!options.json) for (const w of compiled.result.schema.warnings) io.stderr(`warning ${w.code}: ${w.message}\n`);
  const text = await readText(io, options.instance, 'instance');
  const outcome = await engine.validateJson(compiled.fingerprint, text);
  if (!('refused' in outcome) && !outcome.valid && outcome.issues[0].keyword === 'json') {
    throw new UsageError(
      `instance ${options.instance === '-' ? 'from standard input' : JSON.stringify(options.instance)} ${outcome.issues[0].message}`,
    );
  }
  return report(io, options.json, outcome);
}

function report(io: CliIo, json: boolean, outcome: ValidationOutcome): number {
  if (json) io.stdout(`${JSON.stringify(outcome)}\n`);
  if ('refused' in outcome) {
    if (!json) io.stderr(`schema refused (${outcome.refused.code}): ${outcome.refused.message}\n`);
    return exitCodes.usage;
  }
  if (outcome.valid) {
    if (!json) io.stdout('valid\n');
    return exitCodes.ok;
  }
  if (!json) io.stdout(outcome.issues.map((issue) => `${formatIssue(issue)}\n`).join(''));
  return exitCodes.failed;
}
