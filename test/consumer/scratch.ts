// The consumer tests' set-up: pack the package as `npm publish` would, then install the tarball into a scratch
// project in the system temp folder (outside the repository, so nothing resolves through its node_modules).
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** Tools the scratch project borrows from the repository's devDependencies (a consumer has its own). */
export const repoBin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * The environment for child processes, without what `npm run` exports for *this* package (its prefix, lifecycle
 * and package fields), which would point a nested npm at the repository instead of the scratch project.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npmOwn = /^npm_(package_|lifecycle_|config_local_prefix|config_prefix|command|execpath|node_execpath)/i.test(key);
    if (!npmOwn && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command without a shell; resolves with its exit code and output (never rejects on a non-zero exit). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? childEnv(), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({
          code,
          stdout,
          stderr: error?.killed ? `${stderr}\n(killed: timeout)` : stderr,
          ms: performance.now() - started,
        });
      },
    );
  });
}

/** Throws with the command's output when it failed. */
export function expectOk(what: string, result: RunResult): RunResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  return result;
}

export interface Scratch {
  /** The scratch project: package.json, node_modules with schemaval installed from the tarball. */
  readonly dir: string;
  readonly tarball: string;
  /** The installed package's folder and its package.json. */
  readonly packageDir: string;
  readonly manifest: { readonly exports: Record<string, unknown>; readonly version: string };
  /** How the tarball was installed: `offline` (npm's cache only) or `prefer-offline` (the registry as fallback). */
  readonly install: 'offline' | 'prefer-offline';
  readonly timings: Record<string, number>;
  remove(): Promise<void>;
}

/**
 * `npm pack` (whose `prepack` builds dist/), then a scratch project with the tarball and `@types/node` installed
 * from npm's cache. `npm ci` in the repository filled that cache with every runtime dependency.
 */
export async function createScratch(): Promise<Scratch> {
  const dir = await mkdtemp(join(tmpdir(), 'schemaval-consumer-'));
  try {
    return await fillScratch(dir);
  } catch (error) {
    if (process.env.SCHEMAVAL_KEEP_SCRATCH === undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function fillScratch(dir: string): Promise<Scratch> {
  const timings: Record<string, number> = {};
  const packDir = join(dir, 'pack');
  const projectDir = join(dir, 'project');
  await mkdir(packDir);
  await mkdir(projectDir);

  const packed = expectOk(
    'npm pack',
    await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: repoRoot, timeoutMs: 180_000 }),
  );
  timings.pack = packed.ms;
  const files = (await readdir(packDir)).filter((name) => name.endsWith('.tgz'));
  if (files.length !== 1) throw new Error(`npm pack left ${files.length} tarballs in ${packDir}`);
  const tarball = join(packDir, files[0]!);

  const typesNode = JSON.parse(await readFile(join(repoRoot, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string };
  await writeFile(join(projectDir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  const installArgs = ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball, `@types/node@${typesNode.version}`];
  let install: Scratch['install'] = 'offline';
  let installed = await run('npm', [...installArgs, '--offline'], { cwd: projectDir, timeoutMs: 180_000 });
  if (installed.code !== 0) {
    install = 'prefer-offline';
    installed = expectOk(
      'npm install --prefer-offline',
      await run('npm', [...installArgs, '--prefer-offline'], { cwd: projectDir, timeoutMs: 300_000 }),
    );
  }
  timings.install = installed.ms;

  const packageDir = join(projectDir, 'node_modules', 'schemaval');
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Scratch['manifest'];
  return {
    dir: projectDir,
    tarball,
    packageDir,
    manifest,
    install,
    timings,
    remove: async () => {
      if (process.env.SCHEMAVAL_KEEP_SCRATCH === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Copies a folder of test/consumer/fixtures into the scratch project. */
export async function copyFixture(name: string, scratch: Scratch, to = name): Promise<string> {
  const target = join(scratch.dir, to);
  await cp(join(fixturesDir, name), target, { recursive: true });
  return target;
}
