import type { ToolVerdict } from '../protocol/tool.ts';

/** `lint --format`: text (default, streamed), json (`--json`), and the reports a CI system annotates. */
export const lintFormats = ['text', 'json', 'sarif', 'github', 'junit'] as const;
export type LintFormat = (typeof lintFormats)[number];

/** Where the tools came from, as the reports name it. */
export interface LintSource {
  /** A SARIF artifact URI: the file as given (relative stays relative), the server's URL, or the server command. */
  readonly uri: string;
  /** A tools file (`file=` of a GitHub annotation; a relative path is relative to the repository). */
  readonly file?: string;
  /** The 1-based line where a tool is defined in the file, when it can be found. */
  readonly lineOf: (name: string) => number | undefined;
  /** In words, for the JUnit suite. */
  readonly label: string;
}

interface Problem {
  readonly level: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
}

/** A tool's refusal (both sides, when both are refused) and its warnings, each with the path its message names. */
function problemsOf(verdict: ToolVerdict): Problem[] {
  const problems: Problem[] = [];
  const refused = [verdict.input, verdict.output].flatMap((side) => (side?.status === 'refused' ? [side.refusal] : []));
  if (verdict.status === 'refused') {
    const [first, ...rest] = refused;
    const code = first?.code ?? 'refused';
    const also = rest.map((r) => `; also ${r.code}: ${r.message}`).join('');
    problems.push({ level: 'error', code, message: `${about(verdict.name, first?.message ?? 'refused')}${also}` });
  }
  for (const warning of verdict.warnings)
    problems.push({ level: 'warning', code: warning.code, message: about(verdict.name, warning.message) });
  return problems;
}

/** A message that names its tool (an `invalid_tool` message already does). */
function about(name: string, message: string): string {
  const tool = `tool ${JSON.stringify(name)}`;
  return message.startsWith(tool) ? message : `${tool}: ${message}`;
}

/**
 * A SARIF 2.1.0 log GitHub code scanning accepts: one result per refused tool (ruleId: its refusal code) and one
 * per warning, each located at the tools file (line of the tool's name when found) or the server's URL, with the
 * tool as a logical location.
 */
export function sarifLog(verdicts: readonly ToolVerdict[], source: LintSource, version: string): string {
  const rules = new Map<string, Problem['level']>();
  const results = verdicts.flatMap((verdict) =>
    problemsOf(verdict).map((problem) => {
      if (!rules.has(problem.code)) rules.set(problem.code, problem.level);
      const line = source.lineOf(verdict.name) ?? 1;
      return {
        ruleId: problem.code,
        level: problem.level,
        message: { text: problem.message },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: source.uri }, region: { startLine: line } },
            logicalLocations: [{ name: verdict.name, kind: 'function' }],
          },
        ],
        partialFingerprints: { toolName: verdict.name, refusalCode: problem.code },
      };
    }),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'schemaval',
            semanticVersion: version,
            informationUri: 'https://github.com/schemaval/schemaval/blob/main/docs/policy.md',
            rules: [...rules].map(([id, level]) => ({
              id,
              shortDescription: { text: level === 'error' ? `schema refused: ${id}` : `schema warning: ${id}` },
              helpUri: 'https://github.com/schemaval/schemaval/blob/main/docs/policy.md',
              defaultConfiguration: { level },
            })),
          },
        },
        artifacts: [{ location: { uri: source.uri } }],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** GitHub Actions workflow commands: `::error` per refused tool, `::warning` per warning, then the summary. */
export function githubCommands(verdicts: readonly ToolVerdict[], source: LintSource): string {
  const lines = verdicts.flatMap((verdict) =>
    problemsOf(verdict).map((problem) => {
      const line = source.lineOf(verdict.name);
      const where = source.file === undefined ? '' : `file=${property(source.file)}${line === undefined ? '' : `,line=${line}`},`;
      return `::${problem.level} ${where}title=${property(`schemaval ${problem.code}: ${verdict.name}`)}::${data(problem.message)}`;
    }),
  );
  return lines.map((line) => `${line}\n`).join('');
}

/** A workflow command's message: `%`, CR and LF escaped. */
const data = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also `:` and `,`. */
const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** JUnit XML: one testcase per tool, a `<failure>` for each refused one; warnings as the case's system-out. */
export function junitXml(verdicts: readonly ToolVerdict[], source: LintSource): string {
  const failures = verdicts.filter((v) => v.status === 'refused').length;
  const cases = verdicts.map((verdict) => {
    const problems = problemsOf(verdict);
    const failure = problems.find((p) => p.level === 'error');
    const warnings = problems.filter((p) => p.level === 'warning').map((p) => `warning ${p.code}: ${p.message}`);
    const body = [
      failure === undefined
        ? ''
        : `      <failure type="${xml(failure.code)}" message="${xml(failure.message)}">${xml(failure.message)}</failure>\n`,
      warnings.length === 0 ? '' : `      <system-out>${xml(warnings.join('\n'))}</system-out>\n`,
    ].join('');
    const open = `    <testcase name="${xml(verdict.name)}" classname="schemaval.lint"`;
    return body === '' ? `${open}/>\n` : `${open}>\n${body}    </testcase>\n`;
  });
  const suite = `name="schemaval lint ${xml(source.label)}" tests="${verdicts.length}" failures="${failures}" errors="0"`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites ${suite}>\n  <testsuite ${suite}>\n${cases.join('')}  </testsuite>\n</testsuites>\n`
  );
}

const entities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text as XML 1.0 character data or attribute value: markup escaped, characters XML cannot hold as `\uXXXX`. */
function xml(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += c + (text[++i] as string);
    } else if (c in entities) out += entities[c];
    else if (code === 9 || code === 10 || code === 13) out += `&#${code};`;
    else if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += c;
  }
  return out;
}
