// The doc-command test's one reviewed table (issue 22): how each documented command is run here, with the reason.
// A command no rule matches runs as written and must exit 0 and print what the docs show under it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocCommand } from './extract-commands.ts';
import type { ShellResult } from './run-shell.ts';

export const root = fileURLToPath(new URL('../..', import.meta.url));
/** Repo-relative: where the commands' own files and outputs go (rewritten paths stay readable in the output). */
export const scratch = '.cache/doc-commands';

export type ServerKind = 'demo' | 'edge';

/** What a rewrite may need: fixture places and the ports of this run. */
export interface Context {
  /** Outside the checkout, so a module it requires resolves nowhere (server.js). Made by this test. */
  fixtures: string;
  /** A port nothing listens on. */
  closedPort: number;
  ports: Record<ServerKind, number>;
}

interface RuleBase {
  readonly match: RegExp;
  readonly reason: string;
}
/** Run (as written unless `as` rewrites it, then the docs' output rewritten the same way) and check its exit. */
export interface RunRule extends RuleBase {
  readonly how: 'run';
  readonly exit: number;
  readonly as?: (text: string, context: Context) => string;
  /** Runs while this server (started once for its `serve` commands) is up. */
  readonly server?: ServerKind;
  readonly env?: Readonly<Record<string, string>>;
  /** Repo-relative paths removed first, so `check` sees what this run wrote. */
  readonly clear?: readonly string[];
  readonly check?: (result: ShellResult, text: string) => void;
  readonly timeoutMs?: number;
}
/** Too long to run here: its `--help` (after `--` for an npm script) must exit 0 and print a usage. */
interface HelpRule extends RuleBase {
  readonly how: 'help';
}
/** A server: started once per kind with every documented invocation's flags, probed, used, stopped. */
interface ServeRule extends RuleBase {
  readonly how: 'serve';
  readonly server: ServerKind;
}
/** Needs what this machine cannot have. */
interface NotHereRule extends RuleBase {
  readonly how: 'not-here';
}
export type Rule = RunRule | HelpRule | ServeRule | NotHereRule;

/** The bundle `wrangler deploy --dry-run --outdir DIR` leaves, at DIR as given (relative to the checkout). */
const bundledAt = (text: string) => {
  const outdir = / --outdir (\S+)/.exec(text)?.[1];
  assert.ok(outdir !== undefined, `${text} names no --outdir`);
  assert.ok(existsSync(join(root, outdir, 'index.js')), `${text}: no Worker bundle at ${outdir}/index.js`);
};

export const rules: readonly Rule[] = [
  // Installs.
  {
    match: /^npm install$/,
    how: 'help',
    reason: 'installs from the registry: CI runs `npm ci` on the clean clone before this test, and every command here runs on what it left',
  },
  { match: /^npm ci$/, how: 'help', reason: "the workflow's install step: this checkout is installed already" },
  {
    match: /^npm install schemaval$/,
    how: 'not-here',
    reason:
      "a host project's install: here the package would depend on itself; test:consumer installs the packed tarball into a scratch project",
  },
  // Servers, and the commands that talk to them.
  {
    match: /^npm start(?!.* --help$)( -- .+)?$/,
    how: 'serve',
    server: 'demo',
    reason: 'serves until stopped: started once on a free port with every documented flag, probed, stopped (its --help runs as written)',
  },
  {
    match: /^npm run edge(?!.* --help$)( -- .+)?$/,
    how: 'serve',
    server: 'edge',
    reason: 'serves until stopped: started once on a free port with every documented flag, probed, stopped (its --help runs as written)',
  },
  {
    match: /^curl .*127\.0\.0\.1:8787\//,
    how: 'run',
    exit: 0,
    server: 'edge',
    as: (text, context) => text.replaceAll('127.0.0.1:8787', `127.0.0.1:${context.ports.edge}`),
    reason: 'asks `npm run edge`: run against the one started here, on its port',
  },
  {
    match: /^npx schemaval (lint|validate) --url https:\/\/mcp\.example\.com\/mcp /,
    how: 'run',
    exit: 0,
    server: 'demo',
    env: { TOKEN: 'doc-test' },
    as: (text, context) =>
      text
        .replace('https://mcp.example.com/mcp', `http://127.0.0.1:${context.ports.demo}/mcp`)
        .replace(' --tool search --instance call.json', ` --tool get_weather --instance ${scratch}/call.json`),
    reason:
      "mcp.example.com stands for any server and this machine has no internet: the same flags against `npm start`'s gateway; " +
      'its tool search and call.json for the demo get_weather and a valid call',
  },
  // Long runs.
  { match: /^npm test$/, how: 'help', reason: 'the whole suite: many minutes, and this test is part of it' },
  {
    match: /^(SCHEMAVAL_KEEP_SCRATCH=1 )?npm run test:consumer$/,
    how: 'help',
    reason: 'builds, packs and installs the package into a scratch project (30-90 s); npm test runs it',
  },
  {
    match: /^CHROMIUM_PATH=.+ npm run test:e2e$/,
    how: 'help',
    reason: "every browser test against a demo of its own (minutes); CHROMIUM_PATH names another machine's browser; npm test runs it",
  },
  {
    match: /^SCHEMAVAL_DIFF_SEED=7 SCHEMAVAL_DIFF_RUNS=5000 node /,
    how: 'run',
    exit: 0,
    as: (text) => text.replace('SCHEMAVAL_DIFF_RUNS=5000', 'SCHEMAVAL_DIFF_RUNS=20'),
    timeoutMs: 180_000,
    reason: '5,000 schemas take over a minute on two cores: 20 run the same file with the same seed and knobs (test:unit runs 1,000)',
  },
  {
    match: /^node --import tsx test\/conformance\/run\.ts --suite \S+ \[--strict\]$/,
    how: 'run',
    exit: 0,
    as: (text) => text.replace(' [--strict]', ' --strict'),
    reason: '[--strict] marks an optional flag: run with it (`npm run conformance` above runs the form without)',
  },
  // Deploys.
  {
    match: /^npx wrangler login$/,
    how: 'not-here',
    reason: 'an interactive Cloudflare login in a browser, for an account this machine does not have',
  },
  {
    match: /^(SCHEMAVAL_PAGE=off )?npm run deploy$/,
    how: 'run',
    exit: 0,
    as: (text) => `${text} -- --dry-run --outdir ${scratch}/${text.startsWith('SCHEMAVAL_PAGE=off') ? 'deploy-no-page' : 'deploy'}`,
    check: (_, text) => bundledAt(text),
    timeoutMs: 180_000,
    reason: 'a real deploy needs a Cloudflare account and the network: the documented dry form, which bundles the same Worker',
  },
  {
    match: /^npm run deploy -- --dry-run --outdir \.cache\/edge-dist$/,
    how: 'run',
    exit: 0,
    clear: ['.cache/edge-dist'],
    check: (_, text) => bundledAt(text),
    timeoutMs: 180_000,
    reason: 'as written; --outdir is relative to the checkout, so the bundle must land in .cache/edge-dist',
  },
  // The CLI: exits other than 0, and placeholders made real.
  {
    match: /^npx schemaval lint (.+ )?examples\/tools\.json$/,
    how: 'run',
    exit: 1,
    reason: 'as written; examples/tools.json holds refused tools: exit 1',
  },
  {
    match: /^echo .+ \| npx schemaval validate --schema examples\/weather-input\.schema\.json$/,
    how: 'run',
    exit: 1,
    reason: 'as written; the instances shown are invalid: exit 1',
  },
  {
    match: /^npx schemaval (validate --schema nope\.json|lint tools\.json --verbose|lint tools\.json extra\.json)$/,
    how: 'run',
    exit: 2,
    reason: 'as written; a missing file and usage errors: exit 2',
  },
  {
    match:
      /^(echo '\{"a": 1, "b": "2"\}' \| )?npx schemaval validate (--json )?--stdio "npx -y @modelcontextprotocol\/server-everything stdio" --tool get-sum( --args '\{"a": "one"\}')?$/,
    how: 'run',
    exit: 1,
    reason: 'as written (server-everything is a devDependency: no download); the arguments shown are invalid: exit 1',
  },
  {
    match: /^npx schemaval validate --stdio "[^"]+" --tool (get-sum --max-schema-bytes 50|get_sum) /,
    how: 'run',
    exit: 2,
    reason: 'as written; a tool refused under a tighter bound, and a tool the server does not list: exit 2',
  },
  {
    match: /^npx schemaval validate --schema schema\.json < value\.json$/,
    how: 'run',
    exit: 2,
    as: (text) => text.replace(/(?<![\w./-])(schema|value)\.json/g, `${scratch}/$1.json`),
    reason: 'schema.json stands for a broken schema file: a fixture whose line 3 breaks at column 23',
  },
  {
    match: /^npx schemaval lint --stdio "node server\.js"$/,
    how: 'run',
    exit: 2,
    as: (text, context) => text.replace('node server.js', `node ${context.fixtures}/server.js`),
    reason: "server.js stands for a server whose dependency is missing: a fixture outside the checkout that requires 'zod'",
  },
  {
    match: /^npx schemaval lint --stdio "node slow\.js" --timeout 2000$/,
    how: 'run',
    exit: 2,
    as: (text) => text.replace('node slow.js', `node ${scratch}/slow.js`),
    reason: 'slow.js stands for a server that never answers: a fixture that waits forever',
  },
  {
    match: /^npx schemaval lint --url http:\/\/127\.0\.0\.1:8787\/mcp$/,
    how: 'run',
    exit: 2,
    as: (text, context) => text.replace('127.0.0.1:8787', `127.0.0.1:${context.closedPort}`),
    reason: 'shows a server that is not running: a port nothing listens on (8787 may be in use on this machine)',
  },
  {
    match: /^npx schemaval lint --stdio "npx -y @modelcontextprotocol\/server-filesystem \/tmp"$/,
    how: 'run',
    exit: 0,
    as: (text) => text.replace(' /tmp"', ` ${scratch}/files"`),
    reason: "no test reads outside the checkout: the server's one directory is under .cache (it is a devDependency: no download)",
  },
  {
    match: /^npx schemaval lint --format (sarif|github) (--max-work \d+ )?tools\.json( > schemaval\.sarif)?$/,
    how: 'run',
    exit: 1,
    as: (text) => text.replace(' tools.json', ' examples/tools.json').replace('> schemaval.sarif', `> ${scratch}/schemaval.sarif`),
    check: (_, text) => {
      if (!text.includes('schemaval.sarif')) return;
      const log = JSON.parse(readFileSync(join(root, scratch, 'schemaval.sarif'), 'utf8')) as { version?: unknown };
      assert.equal(log.version, '2.1.0');
    },
    reason:
      "the workflow lints its own repository's tools.json: examples/tools.json stands in (refused tools: exit 1), the report under .cache",
  },
];

/** The one rule for a command, or undefined: then it runs as written and exits 0. */
export const ruleFor = (command: DocCommand) => rules.find((rule) => rule.match.test(command.text));

/** The `--help` form of a command: after `--` for an npm script, so the script (not npm) is asked. */
export function helpForm(text: string): string {
  if (text.includes(' -- ')) return `${text} --help`;
  return /\bnpm (run|start|test)\b/.test(text) ? `${text} -- --help` : `${text} --help`;
}

/** One start for every documented invocation of a server: their flags together, on `port`. */
export function mergedInvocation(texts: readonly string[], port: number): string {
  const bases = new Set(texts.map((text) => text.split(' -- ')[0]));
  assert.equal(bases.size, 1, `one server command per kind: ${[...bases].join(', ')}`);
  const flags = new Set<string>();
  for (const text of texts) {
    const args = text.split(' -- ')[1]?.split(/\s+/) ?? [];
    for (let i = 0; i < args.length; i++) {
      const flag = args[i] as string;
      const value = args[i + 1];
      const pair = value !== undefined && !value.startsWith('--');
      if (pair) i++;
      if (flag !== '--port') flags.add(pair ? `${flag} ${value}` : flag);
    }
  }
  return `${[...bases][0]} -- --port ${port}${[...flags].map((flag) => ` ${flag}`).join('')}`;
}
