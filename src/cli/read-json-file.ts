import { type ParseJsonLimits, parseJson } from '../engine/json/index.ts';
import { CliError, type CliIo } from './cli-io.ts';
import { jsonErrorMessage } from './json-error-message.ts';

/**
 * Reads and losslessly parses a JSON file (or stdin for `-`). Unreadable or malformed input is a `CliError`;
 * input over a bound comes back as data, since `validate` turns it into a schema refusal.
 */
export async function readJsonFile(
  io: CliIo,
  file: string,
  what: string,
  limits: ParseJsonLimits,
): Promise<{ ok: true; value: unknown; text: string } | { ok: false; code: 'too_large' | 'too_deep'; message: string }> {
  const text = await readText(io, file, what);
  const parsed = parseJson(text, limits);
  if (parsed.ok) return { ...parsed, text };
  if (parsed.code === 'malformed') throw new CliError('invalid_json', jsonErrorMessage(file, text, parsed.message));
  return { ok: false, code: parsed.code, message: `${what} ${quoted(file)} is ${parsed.message}` };
}

/** Reads a file's text; a failure is a `CliError` that names the file and says what went wrong in words. */
export async function readText(io: CliIo, file: string, what: string): Promise<string> {
  if (file === '-' && io.stdinIsTty) io.stderr(`reading ${what} from standard input (end with Ctrl-D)\n`);
  try {
    return await io.readText(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? reasons[code] : undefined;
    const source = file === '-' ? 'standard input' : JSON.stringify(file);
    if (code === 'ENOENT') throw new CliError('file_not_found', `cannot read ${source}: no such file`);
    const words = reason ?? (typeof code === 'string' ? code : error instanceof Error ? error.message : String(error));
    throw new CliError('file_unreadable', `cannot read ${source}: ${words}`);
  }
}

/** Node's file-system error codes a user meets, in words. */
const reasons: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** How a file is named in a sentence. */
export const quoted = (file: string): string => (file === '-' ? 'from standard input' : JSON.stringify(file));
