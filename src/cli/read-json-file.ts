import { type ParseJsonLimits, parseJson } from '../engine/parse-json.ts';
import { type CliIo, UsageError } from './cli-io.ts';

/** Reads and losslessly parses a JSON file (or stdin for `-`); unreadable or malformed input is a usage error. */
export async function readJsonFile(
  io: CliIo,
  file: string,
  what: string,
  limits: ParseJsonLimits,
): Promise<{ ok: true; value: unknown } | { ok: false; code: 'too_large' | 'too_deep'; message: string }> {
  const text = await readText(io, file, what);
  const parsed = parseJson(text, limits);
  if (parsed.ok) return parsed;
  if (parsed.code === 'malformed') throw new UsageError(`${what} ${describe(file)} is not valid JSON: ${parsed.message}`);
  return { ok: false, code: parsed.code, message: `${what} ${describe(file)} is ${parsed.message}` };
}

/** Reads a file's text, turning I/O errors into usage errors that name the file. */
export async function readText(io: CliIo, file: string, what: string): Promise<string> {
  if (file === '-' && io.stdinIsTty) io.stderr(`reading ${what} from standard input (end with Ctrl-D)\n`);
  try {
    return await io.readText(file);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    throw new UsageError(`cannot read ${what} ${describe(file)}: ${reason}`);
  }
}

const describe = (file: string): string => (file === '-' ? 'from standard input' : JSON.stringify(file));
