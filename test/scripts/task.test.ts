// scripts/task.mjs runs the npm scripts that chain several commands (issue 22: `--help` on every script). Real child
// processes, but only --help and mistakes: none of them runs a step (that would be the suite inside itself).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node ...args` from the repository root and collects what it printed. */
function node(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const task = (...args: string[]) => node(['scripts/task.mjs', ...args]);
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** The package.json scripts that go through the runner, by their task name. */
const viaTask = Object.entries(scripts).flatMap(([name, command]) => {
  const called = /^node scripts\/task\.mjs (\S+)$/.exec(command)?.[1];
  return called === undefined ? [] : [{ name, called }];
});
const commandOf = (name: string) => (name === 'test' ? 'npm test' : `npm run ${name}`);

describe('scripts/task.mjs', () => {
  it('runs the multi-command scripts, each under its own name, and no script chains commands with &&', () => {
    assert.deepEqual(
      viaTask.map(({ name }) => name),
      ['build', 'test', 'check', 'typecheck', 'test:unit', 'test:consumer', 'test:e2e', 'bench:cli'],
    );
    for (const { name, called } of viaTask) assert.equal(called, name);
    for (const [name, command] of Object.entries(scripts)) assert.doesNotMatch(command, /&&/, `"${name}": ${command}`);
  });

  for (const { name } of viaTask) {
    it(`${commandOf(name)} -- --help prints its usage and steps, and exits 0`, async () => {
      const { status, stdout, stderr } = await task(name, '--help');
      assert.equal(status, 0, stderr);
      assert.equal(stderr, '');
      assert.ok(stdout.startsWith(`usage: ${commandOf(name)}`), stdout);
      assert.match(stdout, /\nruns( in order, stopping at the first failure)?:\n {2}1\. /);
      assert.ok(stdout.includes('-h, --help'), stdout);
    });
  }

  it("npm test's usage names its five steps in the order CI runs them", async () => {
    const { stdout } = await task('test', '-h');
    const steps = [...stdout.matchAll(/^ {2}\d\. npm run -s (\S+)$/gm)].map((match) => match[1]);
    assert.deepEqual(steps, ['check', 'test:unit', 'test:consumer', 'conformance:ci', 'test:e2e']);
  });

  it('npm run test:unit runs every folder of tests but the consumer tests, which npm run test:consumer runs', async () => {
    const { stdout } = await task('test:unit', '--help');
    const block = /\ntest files:\n((?: {2}.+\n)+)/.exec(stdout)?.[1] ?? '';
    const globs = new Set(block.split(/\s+/).filter(Boolean));
    const folders = new Set<string>();
    for (const base of ['test', 'edge/test']) {
      for (const entry of readdirSync(join(root, base), { recursive: true, withFileTypes: true })) {
        if (entry.isFile() && entry.name.endsWith('.test.ts')) folders.add(relative(root, entry.parentPath));
      }
    }
    assert.ok(folders.has('test/scripts') && folders.has('test/docs'), [...folders].join(' '));
    for (const folder of folders) {
      if (folder === 'test/consumer') continue;
      assert.ok(globs.has(`${folder}/*.test.ts`), `test:unit does not run ${folder}/*.test.ts`);
    }
  });

  it('an unknown option is one line of ours and exit 2, before any step runs', async () => {
    for (const name of ['test', 'typecheck', 'test:unit']) {
      const { status, stdout, stderr } = await task(name, '--verbose');
      assert.equal(status, 2);
      assert.equal(stdout, '');
      assert.equal(stderr, `${commandOf(name)}: unknown option --verbose (${commandOf(name)} -- --help lists the options)\n`);
    }
  });

  it('takes a file list only where the tool takes one, and --help wins over a mistake beside it', async () => {
    const stray = await task('test', 'test/rooms.test.ts');
    assert.equal(stray.status, 2);
    assert.equal(stray.stderr, 'npm test: unexpected argument "test/rooms.test.ts" (npm test -- --help lists the options)\n');
    const value = await task('test:consumer', '--test-only=yes');
    assert.equal(value.status, 2);
    assert.match(value.stderr, /^npm run test:consumer: --test-only takes no value \(/);
    const both = await task('check', '--bogus', '--help');
    assert.equal(both.status, 0);
    assert.match(both.stdout, /^usage: npm run check\n/);
  });

  it('names a task it does not have, and lists its tasks on --help', async () => {
    const unknown = await task('lint');
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr, 'node scripts/task.mjs: unknown task "lint" (node scripts/task.mjs --help lists them)\n');
    const none = await task();
    assert.equal(none.status, 2);
    const inherited = await task('toString');
    assert.equal(inherited.status, 2, 'a name from Object.prototype is no task');
    const list = await task('--help');
    assert.equal(list.status, 0);
    for (const { name } of viaTask) assert.match(list.stdout, new RegExp(`^ {2}${name} `, 'm'));
  });
});

describe('the single-command scripts with their own arguments', () => {
  it('npm run tour -- --help prints its usage; an argument is one line and exit 2', async () => {
    const help = await node(['--import', 'tsx', 'examples/tour.ts', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: npm run tour\n/);
    assert.doesNotMatch(help.stdout, /\$ npx schemaval/, 'the tour itself did not run');
    const stray = await node(['--import', 'tsx', 'examples/tour.ts', 'now']);
    assert.equal(stray.status, 2);
    assert.equal(stray.stderr, 'npm run tour: unexpected argument "now" (npm run tour -- --help lists the options)\n');
  });

  it('npm run conformance -- --help prints its usage; an unknown option or no --suite is one line, no stack', async () => {
    const help = await node(['--import', 'tsx', 'test/conformance/run.ts', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: npm run conformance -- --suite DIR \[--strict\]\n/);
    const unknown = await node(['--import', 'tsx', 'test/conformance/run.ts', '--verbose']);
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr, 'npm run conformance: unknown option --verbose (npm run conformance -- --help lists the options)\n');
    const missing = await node(['--import', 'tsx', 'test/conformance/run.ts', '--strict']);
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, 'npm run conformance: --suite DIR is required (npm run conformance -- --help lists the options)\n');
  });
});
