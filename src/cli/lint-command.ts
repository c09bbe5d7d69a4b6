import type { Validator } from '../host/create-validator.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { CliError, type CliIo, exitCodes } from './cli-io.ts';
import { readJsonFile } from './read-json-file.ts';

export interface LintOptions {
  readonly file: string;
  readonly json: boolean;
}

/** Nesting allowed in a tools file: deep enough that a too-deep schema is refused per tool, not the whole file. */
const fileDepth = 1000;
const fileBytes = 64 * 1024 * 1024;

/** `schemaval lint`: each tool's verdict, streamed as it is decided, then a summary line. */
export async function lintCommand(open: () => Promise<Validator>, io: CliIo, options: LintOptions): Promise<number> {
  const read = await readJsonFile(io, options.file, 'tools file', { maxBytes: fileBytes, maxDepth: fileDepth });
  if (!read.ok) throw new CliError(read.code, read.message);
  const tools = toolList(read.value);
  const validator = await open();
  const verdicts: ToolVerdict[] = [];
  for (const tool of tools) {
    const [verdict] = await validator.compileTools([tool]);
    if (verdict === undefined) continue;
    verdicts.push(verdict);
    if (!options.json) io.stdout(describeVerdict(verdict));
  }
  const refused = verdicts.filter((v) => v.verdict === 'refused').length;
  if (options.json) io.stdout(`${JSON.stringify({ tools: verdicts }, null, 2)}\n`);
  else {
    const warnings = verdicts.reduce((n, v) => n + v.warnings.length, 0);
    const noun = verdicts.length === 1 ? 'tool' : 'tools';
    io.stdout(
      `${verdicts.length} ${noun}: ${verdicts.length - refused} accepted, ${refused} refused` +
        (warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '') +
        '\n',
    );
  }
  return refused > 0 ? exitCodes.failed : exitCodes.ok;
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

function describeVerdict(verdict: ToolVerdict): string {
  const lines: string[] = [];
  if (verdict.verdict === 'accepted') lines.push(`accepted  ${verdict.name}`);
  else {
    lines.push(`refused   ${verdict.name}`);
    for (const side of [verdict.input, verdict.output]) {
      if (side && !side.ok) lines.push(`          ${side.code}: ${side.message}`);
    }
  }
  for (const warning of verdict.warnings) lines.push(`          warning ${warning.code}: ${warning.message}`);
  return `${lines.join('\n')}\n`;
}
