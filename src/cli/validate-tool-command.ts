import { parseJson } from '../engine/json/index.ts';
import { resolvePolicy } from '../engine/policy/index.ts';
import type { Validator } from '../host/create-validator.ts';
import { judgeToolList } from '../mcp/judge-tool-list.ts';
import type { Refused, ValidationOutcome } from '../protocol/outcome.ts';
import type { Policy } from '../protocol/policy.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { CliError, type CliIo } from './cli-io.ts';
import { jsonErrorMessage } from './json-error-message.ts';
import { listServerTools } from './list-server-tools.ts';
import { progressOf } from './progress.ts';
import { readText } from './read-json-file.ts';
import type { ServerArgs } from './server-args.ts';
import { report, withinBudget } from './validate-command.ts';

export interface ValidateToolOptions {
  /** The server whose `tools/list` holds the tool, and the bounds on waiting for it. */
  readonly server: ServerArgs;
  /** The tool's name, exactly as listed. */
  readonly tool: string;
  /** The call's arguments: JSON text given on the command line (`--args`), or a file (`-`: standard input). */
  readonly args: { readonly kind: 'text'; readonly text: string } | { readonly kind: 'file'; readonly file: string };
  readonly json: boolean;
  /** Bounds from the policy flags, over the defaults. */
  readonly policy: Partial<Policy>;
  /** `--progress`: progress on standard error even when it is not a terminal. */
  readonly progress: boolean;
}

/**
 * `schemaval validate --url URL | --stdio "CMD ARGS" --tool NAME`: one call's arguments against the `inputSchema`
 * of a live server's tool, judged as `lint` judges it (the whole list under the revision it was listed in, through
 * `judgeToolList`, the gateway's judge). Exit codes and output as `validate --schema`: 0 valid, 1 invalid, 2 the
 * tool refused (its refusal code and reason), not listed, or any usage, input or connection error.
 */
export async function validateToolCommand(
  open: (policy: Partial<Policy>) => Promise<Validator>,
  io: CliIo,
  options: ValidateToolOptions,
): Promise<number> {
  const policy = resolvePolicy(options.policy);
  // The arguments first: a typo in them is reported before any server is started or connected to.
  const { text, name } =
    options.args.kind === 'text'
      ? { text: options.args.text, name: '--args' }
      : { text: await readText(io, options.args.file, 'arguments'), name: options.args.file };
  const parsed = parseJson(text, { maxBytes: policy.maxInstanceBytes, maxDepth: policy.maxInstanceDepth });
  if (!parsed.ok && parsed.code === 'malformed') throw new CliError('invalid_json', jsonErrorMessage(name, text, parsed.message));

  const progress = progressOf(io, { asked: options.progress, remote: true });
  const { tools, revision } = await listServerTools(options.server, progress);
  progress.listed(tools.length);
  const index = tools.findIndex((tool) => nameOf(tool) === options.tool);
  if (index === -1) throw new CliError('unknown_tool', unknownTool(options.tool, tools, options.server));

  const validator = await open(options.policy);
  const verdict = (await judgeToolList(tools, revision, (judged) => validator.compileTools(judged)))[index] as ToolVerdict;
  if (!options.json) for (const w of verdict.warnings) io.stderr(`warning ${w.code}: ${w.message}\n`);
  const refused = `tool ${JSON.stringify(options.tool)} refused`;
  if (verdict.status === 'refused') return report(io, options.json, refusalOf(verdict), refused);
  if (!parsed.ok) {
    // Over a bound: invalid at $, as `validate --schema` (the engine's validateJson) says it.
    const keyword = parsed.code === 'too_large' ? 'maxInstanceBytes' : 'maxInstanceDepth';
    return report(io, options.json, { status: 'invalid', issues: [{ path: '$', keyword, message: parsed.message }] });
  }
  const tool = tools[index] as { inputSchema?: unknown };
  const outcome: ValidationOutcome = await withinBudget(policy, () =>
    // A tool whose definition has no canonical JSON (a lone surrogate in a key) has no fingerprint to validate by.
    verdict.fingerprint === ''
      ? validator.validate(tool.inputSchema as object, parsed.value)
      : validator.validateArguments(verdict.fingerprint, parsed.value),
  );
  return report(io, options.json, outcome, refused);
}

const nameOf = (tool: unknown): unknown =>
  typeof tool === 'object' && tool !== null && !Array.isArray(tool) ? (tool as { name?: unknown }).name : undefined;

/** The refusal that refuses the tool: its input side's, else its output side's (a refused tool is refused for every call). */
function refusalOf(verdict: ToolVerdict): Refused {
  const side = [verdict.input, verdict.output].find((s): s is Refused => s !== null && s.status === 'refused');
  return side ?? { status: 'refused', refusal: { code: 'invalid_tool', message: `tool ${JSON.stringify(verdict.name)} is refused` } };
}

/** Names shown when the tool is not listed. */
const shownNames = 5;

/**
 * `no tool "ech" in the tools/list of URL; its 4 tools: echo, ask, remote, weather`: the names nearest to the one
 * asked first (a typo's fix leads), at most five, then how many more.
 */
export function unknownTool(asked: string, tools: readonly unknown[], server: ServerArgs): string {
  const { source } = server;
  const where = source.kind === 'url' ? source.url.href : `server command ${JSON.stringify(source.line)}`;
  const names = tools.map(nameOf).filter((n): n is string => typeof n === 'string');
  const head = `no tool ${JSON.stringify(asked)} in the tools/list of ${where}`;
  if (names.length === 0) return `${head}; it lists no tools`;
  const nearest = names
    .map((n, i) => ({ n, i, d: distance(asked, n) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, shownNames)
    .map(({ n }) => shown(n));
  const more = names.length - nearest.length;
  const noun = names.length === 1 ? 'tool' : 'tools';
  return `${head}; its ${names.length} ${noun}: ${nearest.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/** A name as typed when it is plain, else quoted as JSON (no control character reaches the terminal). */
const shown = (name: string): string => (/^[\w.\-/]+$/.test(name) ? name : JSON.stringify(name));

/** Levenshtein distance of the first 64 characters of each (enough to rank names, bounded for long lists). */
function distance(a: string, b: string): number {
  const s = a.slice(0, 64);
  const t = b.slice(0, 64);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = row;
  }
  return previous[t.length] as number;
}
