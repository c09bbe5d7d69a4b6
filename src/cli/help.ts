import type { Command } from './command.ts';
import { policyHelp } from './policy-flags.ts';

/** The one-line synopsis of each command, printed after a usage error. */
export const synopsis: Readonly<Record<Command, string>> = {
  lint: 'schemaval lint [--json] FILE|-',
  validate: 'schemaval validate [--json] --schema FILE [--instance FILE|-]',
};

export type { Command };

/** `lint`'s second form: the tools of a running server. */
export const lintServerSynopsis =
  'schemaval lint [--json] --url URL [--header "Name: value"]... | --stdio "CMD ARGS" [--timeout MS] [--request-timeout MS]';

/** `validate`'s second form: one call's arguments against the inputSchema of a running server's tool. */
export const validateToolSynopsis =
  'schemaval validate [--json] --url URL [--header "Name: value"]... | --stdio "CMD ARGS" --tool NAME [--args JSON | --instance FILE|-]';

/** The usage lines of a command, each prefixed by `indent` after the first. */
export const usageOf = (command: Command, indent: string): string =>
  `${synopsis[command]}\n${indent}${command === 'lint' ? lintServerSynopsis : validateToolSynopsis}`;

export const isCommand = (name: string | undefined): name is Command => name === 'lint' || name === 'validate';

/** `schemaval --help`. */
export const overviewHelp = `schemaval: JSON Schema enforcement for MCP tools, with the library's policy, messages and bounds.

usage:
  ${synopsis.lint}
  ${lintServerSynopsis}
      Verdict for each tool of a tools/list result, from a file or asked of a running MCP server.
  ${synopsis.validate}
  ${validateToolSynopsis}
      Validate one JSON value (standard input by default) against a schema, or one call's arguments against
      the inputSchema of a running MCP server's tool.
  schemaval COMMAND --help      options, policy flags (--max-work N, ...), input and exit codes of a command
  schemaval --help | --version

exit codes: 0 accepted / valid, 1 refused / invalid, 2 usage, input or operational error
With --json, results and errors are JSON on standard output: errors as {"error":{"code","message"}}.
`;

/** `schemaval lint --help`. */
export const lintHelp = `usage: ${usageOf('lint', '       ')}

Checks each tool's inputSchema and outputSchema against the schema policy and prints every verdict as it is
decided, then a summary line. A tool is refused when either of its schemas is refused.

FILE          a tools/list result {"tools":[...]}, a bare array of tools, or a JSON-RPC response
              {"result":{"tools":[...]}}; - reads standard input
--url URL     connect to an MCP server over Streamable HTTP and lint every page of its tools/list
--stdio "CMD ARGS"
              start CMD ARGS (split like a shell would, but no shell runs) as an MCP server over stdio, with this
              environment; its stderr is kept, and its last error line quoted if it exits before answering

options:
  --json               print {"tools":[{"name","fingerprint","status","input","output","warnings"}]};
                       errors as {"error":{"code","message"}}
  --format F           text (default: each verdict as decided), json (= --json), or at the end a report for CI:
                       sarif (SARIF 2.1.0 for code scanning: a result per refused tool, ruleId its refusal code),
                       github (an ::error workflow command per refused tool, ::warning per warning), junit
                       (JUnit XML: a testcase per tool, a failure per refused one)
  --header "N: v"      an HTTP header for --url, e.g. "Authorization: Bearer TOKEN" (repeatable)
  --timeout MS         one deadline for connecting and listing with --url or --stdio (default 10000)
  --request-timeout MS each request (initialize, each tools/list page) at most MS, within --timeout
  --progress           pages listed, tools linted and the time so far on standard error (without it, only for
                       --url or --stdio when standard error is a terminal); never on standard output
  -h, --help           print this help

${policyHelp}
exit codes:
  0  every tool accepted
  1  some tool refused
  2  usage error; FILE missing, unreadable or not JSON, or not a list of tools; the server unreachable, exited,
     too slow or not answering as MCP; operational error
`;

/** `schemaval validate --help`. */
export const validateHelp = `usage: ${usageOf('validate', '       ')}

Validates one JSON value against the schema in FILE, parsed losslessly (big integers keep their digits).
Schema warnings go to standard error; validation goes on.

With --url or --stdio, the schema is the inputSchema of the tool NAME in a running MCP server's tools/list
(every page followed, as lint does), and the value is one call's arguments. The tool is judged as lint judges it:
a refused tool prints its refusal code and reason and validates nothing.

options:
  --schema FILE       the JSON Schema (required), unless --url or --stdio with --tool names a server's tool
  --instance FILE|-   the value to validate (default -: standard input)
  --url URL           an MCP server over Streamable HTTP, as for lint (--header "Name: value" repeatable)
  --stdio "CMD ARGS"  an MCP server started over stdio, as for lint
  --tool NAME         with --url or --stdio: the tool whose inputSchema validates the arguments (required)
  --args JSON         with --tool: the arguments as JSON text, instead of --instance
  --timeout MS        one deadline for connecting and listing with --url or --stdio (default 10000)
  --request-timeout MS
                      each request (initialize, each tools/list page) at most MS, within --timeout
  --progress          pages listed and the time so far on standard error (without it, only when standard error
                      is a terminal); never on standard output
  --json              print {"status":"valid"}, {"status":"invalid","issues":[...]} or
                      {"status":"refused","refusal":{"code","message"}}; errors as {"error":{"code","message"}}
  -h, --help          print this help

${policyHelp}
exit codes:
  0  valid
  1  invalid: one "$.path: message" line per issue
  2  schema or tool refused; usage error; a file missing, unreadable or not JSON; no tool NAME listed
     (unknown_tool); the server unreachable, exited, too slow or not answering as MCP; operational error
`;

export const helpFor = (command: Command | undefined): string =>
  command === 'lint' ? lintHelp : command === 'validate' ? validateHelp : overviewHelp;
