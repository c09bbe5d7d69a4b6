import { toolListRefusals, toolRefusal } from '../engine/tools/index.ts';
import type { Validator } from '../host/create-validator.ts';
import type { Policy } from '../protocol/policy.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { CliError, type CliIo, exitCodes } from './cli-io.ts';
import type { ToolSource } from './fetch-tools.ts';
import { githubCommands, junitXml, type LintFormat, type LintSource, sarifLog } from './lint-formats.ts';
import { packageVersion } from './package-version.ts';
import { type Progress, progressOf } from './progress.ts';
import { readJsonFile } from './read-json-file.ts';

export interface LintOptions {
  /** A tools file (`-`: standard input), or a server to ask (src/cli/fetch-tools.ts). */
  readonly source: { readonly kind: 'file'; readonly file: string } | ToolSource;
  /** `text` streams each verdict; the others print one document at the end (`json`: `--json`). */
  readonly format: LintFormat;
  /** Bounds from the policy flags, over the defaults. */
  readonly policy: Partial<Policy>;
  /** `--progress`: progress on standard error even when it is not a terminal. */
  readonly progress?: boolean;
  /** For a server: one deadline for connecting and every tools/list page. */
  readonly timeoutMs?: number;
  /** For a server: each request (`initialize`, each page) at most this long. */
  readonly requestTimeoutMs?: number;
}

/** Nesting allowed in a tools file: deep enough that a too-deep schema is refused per tool, not the whole file. */
const fileDepth = 1000;
const fileBytes = 64 * 1024 * 1024;

/** `schemaval lint`: each tool's verdict, streamed as it is decided, then a summary line. */
export async function lintCommand(open: (policy: Partial<Policy>) => Promise<Validator>, io: CliIo, options: LintOptions): Promise<number> {
  const progress = progressOf(io, { asked: options.progress === true, remote: options.source.kind !== 'file' });
  const validator = await open(options.policy);
  // The worker starts (on another thread) while the tools are read or listed; a failure there shows in compileTools.
  validator.stats().catch(() => {});
  const { tools, revision, text } = await loadTools(io, options, progress);
  progress.listed(tools.length);
  // Every batch is asked for first, and posted in the next turn, so the worker compiles while this thread judges
  // the whole list below (a few ms on thousands of tools, ~20 ms the first time); the verdicts are read after that.
  const batches = compileInBatches(validator, tools);
  await new Promise((resolve) => setImmediate(resolve));
  // The file is one list however it is batched: a name repeated in another batch is refused here, in every batch.
  // A server's list is judged by the revision it was listed in; a file names none, so its outputSchema roots stand.
  const forced = toolListRefusals(tools, new Map(), revision);
  // A server's tools are judged under the other revision too, so a CI run learns which clients each tool fails.
  const other = revision === undefined ? undefined : otherRevisionOf(revision);
  const otherForced = other === undefined ? [] : toolListRefusals(tools, new Map(), other);
  const verdicts: LintVerdict[] = [];
  let otherRefused = 0;
  for await (const batch of batches) {
    for (const compiled of batch) {
      const i = verdicts.length;
      const verdict = forced[i] ?? compiled;
      const underOther = otherForced[i] ?? compiled;
      if (underOther.status === 'refused') otherRefused++;
      const differs = other !== undefined && underOther.status !== verdict.status;
      const lintVerdict: LintVerdict = differs ? { ...verdict, otherRevision: revisionVerdict(other, underOther) } : verdict;
      verdicts.push(lintVerdict);
      if (options.format === 'text') io.stdout(describeVerdict(lintVerdict));
    }
    progress.linted(verdicts.length, tools.length);
  }
  const refused = verdicts.filter((v) => v.status === 'refused').length;
  const anyDiffers = verdicts.some((v) => v.otherRevision !== undefined);
  const source = options.format === 'text' || options.format === 'json' ? undefined : lintSource(options.source, text);
  if (options.format === 'json') io.stdout(`${JSON.stringify({ tools: verdicts }, null, 2)}\n`);
  else if (options.format === 'sarif') io.stdout(sarifLog(verdicts, source as LintSource, packageVersion()));
  else if (options.format === 'github') io.stdout(githubCommands(verdicts, source as LintSource));
  else if (options.format === 'junit') io.stdout(junitXml(verdicts, source as LintSource));
  if (options.format === 'text' || options.format === 'github') {
    const warnings = verdicts.reduce((n, v) => n + v.warnings.length, 0);
    const noun = verdicts.length === 1 ? 'tool' : 'tools';
    io.stdout(
      `${verdicts.length} ${noun}: ${verdicts.length - refused} accepted, ${refused} refused` +
        (warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '') +
        (anyDiffers ? ` (MCP ${revision}; under ${other}: ${verdicts.length - otherRefused} accepted, ${otherRefused} refused)` : '') +
        '\n',
    );
  }
  // The exit code follows the revision the server answered in; the other revision's verdicts are information.
  return refused > 0 ? exitCodes.failed : exitCodes.ok;
}

/** A tool's verdict, and where the other MCP revision decides it differently, that decision. */
type LintVerdict = ToolVerdict & { readonly otherRevision?: RevisionVerdict };

/** Accepted, or refused with the refusal, under `revision`. */
type RevisionVerdict = { readonly revision: string } & (
  | { readonly status: 'accepted' }
  | { readonly status: 'refused'; readonly refusal: { readonly code: string; readonly message: string } }
);

/** The revision whose `outputSchema` root rule is the other one: 2026-07-28 lifted what earlier revisions require. */
function otherRevisionOf(revision: string): string {
  return revision < '2026-07-28' ? '2026-07-28' : '2025-11-25';
}

function revisionVerdict(revision: string, verdict: ToolVerdict): RevisionVerdict {
  const refusal = toolRefusal(verdict);
  return refusal === undefined ? { revision, status: 'accepted' } : { revision, status: 'refused', refusal };
}

/** The tools to lint, from the file or, through the MCP SDK (loaded only then), from the server. */
async function loadTools(
  io: CliIo,
  options: LintOptions,
  progress: Progress,
): Promise<{ tools: readonly unknown[]; revision?: string; text?: string }> {
  const { source } = options;
  if (source.kind !== 'file') {
    const { listServerTools } = await import('./list-server-tools.ts');
    return await listServerTools({ ...options, source }, progress);
  }
  const read = await readJsonFile(io, source.file, 'tools file', { maxBytes: fileBytes, maxDepth: fileDepth });
  if (!read.ok) throw new CliError(read.code, read.message);
  return { tools: toolList(read.value), text: read.text };
}

/** How the reports name where the tools came from, and where in a tools file each tool's name stands. */
function lintSource(source: LintOptions['source'], text: string | undefined): LintSource {
  if (source.kind === 'url') return { uri: source.url.href, lineOf: () => undefined, label: source.url.href };
  if (source.kind === 'stdio') return { uri: encodeURI(source.command), lineOf: () => undefined, label: source.line };
  const lines = text === undefined ? new Map<string, number>() : nameLines(text);
  const lineOf = (name: string) => lines.get(name);
  if (source.file === '-') return { uri: 'stdin', lineOf: () => undefined, label: 'standard input' };
  const path = source.file.replace(/\\/g, '/');
  return { uri: encodeURI(path).replace(/[?#]/g, encodeURIComponent), file: path, lineOf, label: path };
}

/** The line of the first `"name": "…"` member for each name in a tools file's text. */
function nameLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 1;
  let scanned = 0;
  for (const match of text.matchAll(/"name"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
    for (; scanned < match.index; scanned++) if (text.charCodeAt(scanned) === 10) line++;
    let name: unknown;
    try {
      name = JSON.parse(match[1] as string);
    } catch {
      continue;
    }
    if (typeof name === 'string' && !lines.has(name)) lines.set(name, line);
  }
  return lines;
}

/** Tools per `compileTools` call: the worker client's message size, so each call is one message each way. */
export const lintBatch = 256;

/**
 * Asks for every verdict at once, in calls of `lintBatch` tools made in the same tick (the worker client sends
 * what is queued in one tick as one message per 256 requests, each tool still with its own compile budget). The
 * calls come back in order, so `for await` over them streams output while later batches compile.
 */
function compileInBatches(validator: Validator, tools: readonly unknown[]): readonly Promise<readonly ToolVerdict[]>[] {
  const pending: Promise<readonly ToolVerdict[]>[] = [];
  for (let i = 0; i < tools.length; i += lintBatch) pending.push(validator.compileTools(tools.slice(i, i + lintBatch)));
  // The first failure is reported (in order); the later ones must not surface as unhandled rejections.
  for (const call of pending) call.catch(() => {});
  return pending;
}

/** `{"tools":[...]}`, a bare array, or a whole JSON-RPC response `{"result":{"tools":[...]}}`. */
function toolList(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const object = value as { tools?: unknown; result?: { tools?: unknown } };
    if (Array.isArray(object.tools)) return object.tools;
    if (Array.isArray(object.result?.tools)) return object.result.tools;
  }
  throw new CliError('invalid_tools_file', 'tools file must hold a tools/list result {"tools":[...]} or an array of tools');
}

function describeVerdict(verdict: LintVerdict): string {
  const lines: string[] = [];
  if (verdict.status === 'accepted') lines.push(`accepted  ${verdict.name}`);
  else {
    lines.push(`refused   ${verdict.name}`);
    for (const side of [verdict.input, verdict.output]) {
      if (side?.status === 'refused') lines.push(`          ${side.refusal.code}: ${side.refusal.message}`);
    }
  }
  for (const warning of verdict.warnings) lines.push(`          warning ${warning.code}: ${warning.message}`);
  const other = verdict.otherRevision;
  if (other !== undefined) {
    const why = other.status === 'refused' ? ` (${other.refusal.code}: ${other.refusal.message})` : '';
    lines.push(`          under MCP ${other.revision}: ${other.status}${why}`);
  }
  return `${lines.join('\n')}\n`;
}
