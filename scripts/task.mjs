// The npm scripts that run several commands (`npm test`, `check`, `typecheck`, the test:* scripts, `build`):
// `node scripts/task.mjs NAME [args]`. npm hands `-- args` to a script's last command only, so a `&&` chain could
// not answer --help (`npm test -- --help` ran the suite). Here every task has a usage, runs its steps in order with
// a one-line header on stderr, stops at the first failure with its exit code, and passes only the arguments its
// tool takes (anything else: one line and exit 2). Each command runs under `sh -c` as npm ran it, globs and all.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from './script-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const unitFiles = [
  'test/*.test.ts',
  'test/cli/*.test.ts',
  'test/docs/*.test.ts',
  'test/engine/*.test.ts',
  'test/engine/adapters/*.test.ts',
  'test/engine/core/*.test.ts',
  'test/engine/forms/*.test.ts',
  'test/engine/issues/*.test.ts',
  'test/engine/json/*.test.ts',
  'test/engine/numbers/*.test.ts',
  'test/engine/patterns/*.test.ts',
  'test/engine/policy/*.test.ts',
  'test/engine/tools/*.test.ts',
  'test/engine/work/*.test.ts',
  'test/host/*.test.ts',
  'test/mcp/*.test.ts',
  'test/scripts/*.test.ts',
  'test/wire/*.test.ts',
  'test/worker/*.test.ts',
  'edge/test/*.test.ts',
  'edge/test/gateway/*.test.ts',
  'edge/test/http/*.test.ts',
  'edge/test/rpc/*.test.ts',
  'edge/test/upstream/*.test.ts',
  'edge/test/workerd/*.test.ts',
];

/** node --test with the spec reporter on stdout and TAP in .cache/NAME.tap (.ci/run counts the TAP files). */
const nodeTest = (tap) =>
  `node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=.cache/${tap}.tap`;

// The node --test options worth passing through; they go before the files.
const nodeTestOptions = {
  'test-name-pattern': { type: 'string', multiple: true },
  'test-only': { type: 'boolean' },
  'test-concurrency': { type: 'string' },
  'test-timeout': { type: 'string' },
};
const nodeTestHelp = `  --test-name-pattern=RE  only the tests whose name matches (repeatable)
  --test-only             only the tests marked { only: true }
  --test-concurrency=N    test files at once
  --test-timeout=MS       a deadline per test`;

/** Step kinds: another npm script (`npm run -s NAME`, as the `&&` chains ran it), or a shell command. */
const script = (name) => ({ name, command: `npm run -s ${name}` });
const shell = (name, command, more = {}) => ({ name, command, ...more });

/** Each task: its steps, the options its last step takes from `-- args`, and what its usage says. */
const tasks = {
  test: {
    steps: ['check', 'test:unit', 'test:consumer', 'conformance:ci', 'test:e2e'].map(script),
    about: 'the whole suite: what CI runs (.ci/run), in this order',
  },
  check: {
    steps: [shell('biome', 'biome check --error-on-warnings .'), script('typecheck')],
    about: 'format and lint (biome), then npm run typecheck',
  },
  typecheck: {
    steps: [
      shell('edge-types', 'node scripts/edge-types.mjs'),
      ...['tsconfig.json', 'src/protocol/tsconfig.json', 'src/engine/tsconfig.json', 'edge/tsconfig.json'].map((project) =>
        shell(`tsc -p ${project}`, `tsc -p ${project}`),
      ),
    ],
    about: "the edge's generated types when stale (scripts/edge-types.mjs), then tsc on each layer's project",
  },
  'test:unit': {
    steps: [shell('node --test', nodeTest('unit'), { cache: true, files: unitFiles })],
    options: nodeTestOptions,
    allowPositionals: true,
    args: '[--test-name-pattern=RE] [FILE ...]',
    more: `${nodeTestHelp}\n  FILE ...                these test files instead of all of them`,
    about: 'the unit and integration tests under node --test (spec on stdout, TAP in .cache/unit.tap)',
  },
  'test:consumer': {
    steps: [shell('node --test', nodeTest('consumer'), { cache: true, files: ['test/consumer/consumer.test.ts'] })],
    options: nodeTestOptions,
    args: '[--test-name-pattern=RE]',
    more: nodeTestHelp,
    environment: 'SCHEMAVAL_KEEP_SCRATCH=1 keeps the scratch project to poke at (its path is printed)',
    about: 'packs the package (npm pack builds dist/) and tests it installed in scratch projects (TAP in .cache/consumer.tap)',
  },
  'test:e2e': {
    steps: [
      shell('playwright test', 'playwright test --reporter=list,json', {
        cache: true,
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: '.cache/e2e.json' },
      }),
    ],
    options: {
      grep: { type: 'string', short: 'g' },
      'grep-invert': { type: 'string' },
      headed: { type: 'boolean' },
      debug: { type: 'boolean' },
      workers: { type: 'string', short: 'j' },
      'repeat-each': { type: 'string' },
    },
    allowPositionals: true,
    args: '[--grep=RE] [--headed] [FILE ...]',
    more: `  -g, --grep=RE       only the tests whose title matches
  --grep-invert=RE    all but those
  --headed, --debug   a visible browser; Playwright's inspector
  -j, --workers=N     browsers at once
  --repeat-each=N     each test N times
  FILE ...            these spec files (or parts of their paths) only`,
    environment: 'CHROMIUM_PATH=... names the Chromium to drive (default /usr/bin/chromium)',
    about: 'the browser tests (Playwright + Chromium) against a demo of their own (JSON report in .cache/e2e.json)',
  },
  build: {
    steps: [shell('edge-types', 'node scripts/edge-types.mjs'), shell('build', 'node scripts/build.mjs')],
    options: { cli: { type: 'boolean' } },
    args: '[--cli]',
    more: '  --cli       the CLI files alone (dist/cli.js, dist/node-worker.js, dist/cli-chunks/), in about a second',
    about:
      "dist/: the edge's generated types when stale, then scripts/build.mjs (tsc for the library, esbuild for the workers and the CLI)",
  },
  'bench:cli': {
    steps: [shell('build --cli', 'node scripts/build.mjs --cli'), shell('bench', 'node --import tsx bench/run.ts --only cli')],
    about: 'bundles the CLI, then the CLI start-up benchmark (npm run bench -- --only cli)',
  },
};

/** How a user types the task: `npm test`, `npm run check`. */
const commandOf = (name) => (name === 'test' ? 'npm test' : `npm run ${name}`);

/** The usage: what it runs, step by step, and the arguments it takes. */
function usageOf(name, task) {
  const command = commandOf(name);
  const head = task.args === undefined ? `usage: ${command}` : `usage: ${command} -- ${task.args}`;
  const filesOf = (files) => (files.length > 2 ? ' <test files>' : ` ${files.join(' ')}`);
  const envOf = (env) => Object.entries(env ?? {}).map(([key, value]) => `${key}=${value} `);
  const steps = task.steps.map(
    (step, index) => `  ${index + 1}. ${envOf(step.env).join('')}${step.command}${step.files ? filesOf(step.files) : ''}`,
  );
  const runs = task.steps.length > 1 ? 'runs in order, stopping at the first failure:' : 'runs:';
  const options = task.more === undefined ? '' : `${task.more}\n`;
  const env = task.environment === undefined ? '' : `environment: ${task.environment}\n`;
  const globs = task.steps.flatMap((step) => (step.files?.length > 2 ? step.files : []));
  const files = globs.length === 0 ? '' : `test files:\n${wrap(globs)}\n`;
  return `${head}\n${task.about}.\n${runs}\n${steps.join('\n')}\n${files}options:\n${options}  -h, --help  this help\n${env}`;
}

/** Words as indented lines of at most 120 characters. */
function wrap(words) {
  const lines = [];
  for (const word of words) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + word.length < 120) lines[last] += ` ${word}`;
    else lines.push(`  ${word}`);
  }
  return lines.join('\n');
}

/** One argument for `sh -c`, quoted so the shell passes it as typed. */
const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;

/** The `-- args` as the tool's own flags, `--name=value` (repeats kept). */
function flagsOf(values, options) {
  const flags = [];
  for (const [name, option] of Object.entries(options ?? {})) {
    const value = values[name];
    if (value === undefined || value === false) continue;
    if (option.type === 'boolean') flags.push(`--${name}`);
    else for (const one of [value].flat()) flags.push(`--${name}=${one}`);
  }
  return flags;
}

/** Runs one shell command from the checkout; resolves with the exit code (128 + signal number if killed). */
function runStep(command, env) {
  return new Promise((resolve, reject) => {
    // Run directly (`node scripts/task.mjs`) too, the tools are found where npm puts them on PATH.
    const path = [join(root, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(delimiter);
    const child = spawn('sh', ['-c', command], { cwd: root, stdio: 'inherit', env: { ...process.env, PATH: path, ...env } });
    // Ctrl-C or a CI timeout: the step decides how it ends, and its exit is ours.
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

const [name, ...rest] = process.argv.slice(2);
const task = name === undefined ? undefined : Object.hasOwn(tasks, name) ? tasks[name] : undefined;
if (task === undefined) {
  const list = Object.keys(tasks).map((key) => `  ${key.padEnd(14)} ${tasks[key].about}`);
  const usage = `usage: node scripts/task.mjs TASK [ARGS ...]   (package.json's scripts call it: npm run TASK -- ARGS)\n${list.join('\n')}\n`;
  if (name === '--help' || name === '-h') {
    process.stdout.write(usage);
    process.exit(0);
  }
  const what = name === undefined ? 'no task given' : `unknown task ${JSON.stringify(name)}`;
  console.error(`node scripts/task.mjs: ${what} (node scripts/task.mjs --help lists them)`);
  process.exit(2);
}

const { values, positionals } = scriptArgs({
  command: commandOf(name),
  usage: usageOf(name, task),
  options: task.options ?? {},
  allowPositionals: task.allowPositionals ?? false,
  args: rest,
});
const extra = [...flagsOf(values, task.options), ...positionals].map(quote);

for (const [index, step] of task.steps.entries()) {
  const last = index === task.steps.length - 1;
  // The arguments go to the last step, as npm would hand them; a file list replaces the default one.
  const files = step.files === undefined ? [] : last && positionals.length > 0 ? [] : step.files;
  const command = [step.command, ...(last ? extra : []), ...files].join(' ');
  if (task.steps.length > 1) process.stderr.write(`${commandOf(name)}: step ${index + 1}/${task.steps.length} ${step.name}\n`);
  if (step.cache) mkdirSync(join(root, '.cache'), { recursive: true });
  const code = await runStep(command, step.env);
  if (code !== 0) process.exit(code);
}
