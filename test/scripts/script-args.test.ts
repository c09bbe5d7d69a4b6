// Every npm script that takes options answers --help with its usage (exit 0) and a mistake with one line of ours
// (exit 2): no Node stack trace, no ERR_PARSE_ARGS_*. Real child processes; none of them gets as far as a server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ParseArgsConfig } from 'node:util';
import { readScriptArgs } from '../../scripts/script-args.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <script> ...args` from the repository root and collects what it printed. */
function run(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A port held by a listener of ours until `close`. */
function hold(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address !== null ? address.port : 0, server });
    });
  });
}

const scripts = [
  { script: 'scripts/demo.mjs', command: 'npm start', option: '--inspector-port' },
  { script: 'edge/dev.mjs', command: 'npm run edge', option: '--inspector-port' },
  { script: 'scripts/deploy.mjs', command: 'npm run deploy', option: '--outdir' },
  { script: 'scripts/screenshots.mjs', command: 'npm run screenshots', option: '--only' },
  { script: 'scripts/build.mjs', command: 'node scripts/build.mjs', option: '--cli' },
  { script: 'scripts/build-page.mjs', command: 'npm run build:page', option: '--help' },
  { script: 'scripts/gather-corpus.mjs', command: 'node scripts/gather-corpus.mjs', option: '--scratch' },
] as const;

describe('script arguments', () => {
  for (const { script, command, option } of scripts) {
    it(`${script}: --help prints its usage, naming ${option}, and exits 0`, async () => {
      const { status, stdout, stderr } = await run(script, ['--help']);
      assert.equal(status, 0, stderr);
      assert.match(stdout, /^usage: /);
      assert.ok(stdout.includes(option), stdout);
      assert.ok(stdout.includes('--help'), stdout);
      assert.equal(stderr, '');
    });

    it(`${script}: an unknown option is one line of ours and exit 2`, async () => {
      const { status, stdout, stderr } = await run(script, ['--verbose']);
      assert.equal(status, 2);
      assert.equal(stdout, '');
      const help = command.startsWith('npm ') ? `${command} -- --help` : `${command} --help`;
      assert.equal(stderr, `${command}: unknown option --verbose (${help} lists the options)\n`);
    });
  }

  it('-h is --help, and --help wins over a mistake beside it', async () => {
    const short = await run('edge/dev.mjs', ['-h']);
    assert.equal(short.status, 0);
    assert.match(short.stdout, /^usage: npm run edge -- /);
    const both = await run('scripts/demo.mjs', ['--bogus', '--help']);
    assert.equal(both.status, 0);
    assert.match(both.stdout, /^usage: npm start -- /);
  });

  it('a missing value, a value for a flag and a stray argument are named in one line', async () => {
    const missing = await run('edge/dev.mjs', ['--port']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^npm run edge: --port wants a value \(/);
    const swallowed = await run('scripts/demo.mjs', ['--port', '--allow', 'http://127.0.0.1:1']);
    assert.equal(swallowed.status, 2);
    assert.match(swallowed.stderr, /^npm start: --port wants a value \(/);
    const flag = await run('scripts/build.mjs', ['--cli=yes']);
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /^node scripts\/build\.mjs: --cli takes no value \(/);
    const stray = await run('scripts/build-page.mjs', ['now']);
    assert.equal(stray.status, 2);
    assert.match(stray.stderr, /^npm run build:page: unexpected argument "now" \(/);
  });

  it('reads values, defaults and repeats once the arguments are right', () => {
    const options: NonNullable<ParseArgsConfig['options']> = {
      port: { type: 'string', default: '8787' },
      allow: { type: 'string', multiple: true, default: [] },
      quiet: { type: 'boolean', short: 'q', default: false },
    };
    const read = readScriptArgs(['--allow', 'a', '--allow=b', '--quiet'], { options });
    assert.deepEqual(read, { kind: 'run', values: { port: '8787', allow: ['a', 'b'], quiet: true }, positionals: [] });
    assert.deepEqual(readScriptArgs(['--port=-1'], { options }), {
      kind: 'run',
      values: { port: '-1', allow: [], quiet: false },
      positionals: [],
    });
    assert.equal(readScriptArgs(['-q'], { options }).kind, 'run');
    assert.deepEqual(readScriptArgs(['-x'], { options }), { kind: 'error', message: 'unknown option -x' });
  });

  it('edge/dev.mjs refuses an inspector port that is taken or no port, before wrangler starts', async () => {
    const held = await hold();
    const free = await hold();
    free.server.close();
    try {
      const taken = await run('edge/dev.mjs', ['--port', String(free.port), '--inspector-port', String(held.port)]);
      assert.equal(taken.status, 1);
      assert.equal(
        taken.stderr,
        `cannot put the inspector on 127.0.0.1:${held.port} (--inspector-port): it is already in use; pick another, or 0 for any free port\n`,
      );
      assert.doesNotMatch(taken.stdout, /starting wrangler dev/);
      const fromEnv = await run('edge/dev.mjs', ['--port', String(free.port)], { SCHEMAVAL_INSPECTOR_PORT: String(held.port) });
      assert.equal(fromEnv.status, 1);
      assert.match(fromEnv.stderr, /\(SCHEMAVAL_INSPECTOR_PORT\): it is already in use/);
      const wrong = await run('edge/dev.mjs', ['--port', String(free.port)], { SCHEMAVAL_INSPECTOR_PORT: 'ninety' });
      assert.equal(wrong.status, 2);
      assert.equal(wrong.stderr, 'SCHEMAVAL_INSPECTOR_PORT wants a TCP port (0: any free), got "ninety"\n');
      const itself = await run('edge/dev.mjs', ['--port', String(free.port), '--inspector-port', String(free.port)]);
      assert.equal(itself.status, 1);
      assert.match(itself.stderr, /: it is --port itself; /);
    } finally {
      held.server.close();
    }
  });

  it('npm start refuses a taken inspector port up front, like its other ports', async () => {
    const held = await hold();
    const free = await hold();
    free.server.close();
    try {
      const taken = await run('scripts/demo.mjs', ['--port', String(free.port), '--inspector-port', String(held.port)]);
      assert.equal(taken.status, 1);
      assert.equal(
        taken.stderr,
        `cannot serve on 127.0.0.1:${held.port} (--inspector-port): it is already in use; pick another with --inspector-port N\n`,
      );
      const wrong = await run('scripts/demo.mjs', ['--inspector-port', '70000']);
      assert.equal(wrong.status, 2);
      assert.equal(wrong.stderr, '--inspector-port wants a TCP port, got "70000"\n');
    } finally {
      held.server.close();
    }
  });

  it('both servers refuse an empty --persist-to before anything starts', async () => {
    for (const script of ['edge/dev.mjs', 'scripts/demo.mjs']) {
      const empty = await run(script, ['--persist-to', '']);
      assert.equal(empty.status, 2, script);
      assert.equal(empty.stderr, '--persist-to wants a folder, got ""\n', script);
    }
  });

  it('npm run screenshots names a picture it does not have', async () => {
    const { status, stderr } = await run('scripts/screenshots.mjs', ['--only', 'tools,sunset']);
    assert.equal(status, 2);
    assert.equal(stderr, 'npm run screenshots: no picture named sunset (npm run screenshots -- --help lists them)\n');
  });
});
