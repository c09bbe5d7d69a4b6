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
  /** The scratch project: package.json, node_modules with schemaval installed from the tarball (and `withPackages`). */
  readonly dir: string;
  readonly tarball: string;
  /** The installed package's folder and its package.json. */
  readonly packageDir: string;
  readonly manifest: {
    readonly exports: Record<string, unknown>;
    readonly version: string;
    readonly dependencies?: Record<string, string>;
    readonly peerDependencies?: Record<string, string>;
    readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  /** How the tarball was installed: `offline` (npm's cache only) or `prefer-offline` (the registry as fallback). */
  readonly install: 'offline' | 'prefer-offline';
  readonly timings: Record<string, number>;
  /** What `npm pack --json` reported: sizes in bytes and every file's path. */
  readonly packed: PackReport;
  remove(): Promise<void>;
}

export interface PackReport {
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

/** `npm pack --json`'s report; what `prepack` printed (the build) comes before the JSON on the same stdout. */
export function packReport(stdout: string): PackReport {
  const start = /^\[\s*\{/m.exec(stdout)?.index;
  if (start === undefined) throw new Error(`npm pack printed no JSON report:\n${stdout}`);
  const [report] = JSON.parse(stdout.slice(start)) as PackReport[];
  if (report === undefined) throw new Error('npm pack reported no package');
  return report;
}

/**
 * `npm pack` (whose `prepack` builds dist/), then a scratch project with the tarball, `@types/node` and the host's
 * own packages (`withPackages`, e.g. its MCP SDK: the package's peers) installed from npm's cache, or the registry
 * when the cache lacks them. `npm ci` in the repository filled that cache with every runtime dependency.
 */
export async function createScratch(withPackages: readonly string[] = []): Promise<Scratch> {
  const dir = await mkdtemp(join(tmpdir(), 'schemaval-consumer-'));
  try {
    return await fillScratch(dir, withPackages);
  } catch (error) {
    if (process.env.SCHEMAVAL_KEEP_SCRATCH === undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function fillScratch(dir: string, withPackages: readonly string[]): Promise<Scratch> {
  const timings: Record<string, number> = {};
  const packDir = join(dir, 'pack');
  await mkdir(packDir);

  const packed = expectOk(
    'npm pack',
    await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: repoRoot, timeoutMs: 180_000 }),
  );
  timings.pack = packed.ms;
  const report = packReport(packed.stdout);
  const files = (await readdir(packDir)).filter((name) => name.endsWith('.tgz'));
  if (files.length !== 1) throw new Error(`npm pack left ${files.length} tarballs in ${packDir}`);
  const tarball = join(packDir, files[0]!);
  const project = await installProject(join(dir, 'project'), tarball, withPackages);
  return {
    ...project,
    tarball,
    timings: { ...timings, ...project.timings },
    packed: report,
    remove: async () => {
      if (process.env.SCHEMAVAL_KEEP_SCRATCH === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Another host project beside the first (removed with it), installing the same tarball with other packages of its
 * own: e.g. a host that brings only the v2 SDK.
 */
export async function createSiblingProject(scratch: Scratch, name: string, withPackages: readonly string[]): Promise<Scratch> {
  const project = await installProject(join(scratch.dir, '..', name), scratch.tarball, withPackages);
  // Removed with the first project's temp folder.
  return { ...project, tarball: scratch.tarball, packed: scratch.packed, remove: async () => {} };
}

async function installProject(
  projectDir: string,
  tarball: string,
  withPackages: readonly string[],
): Promise<Pick<Scratch, 'dir' | 'packageDir' | 'manifest' | 'install' | 'timings'>> {
  const timings: Record<string, number> = {};
  await mkdir(projectDir);
  const typesNode = JSON.parse(await readFile(join(repoRoot, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string };
  await writeFile(join(projectDir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  const installArgs = [
    'install',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    tarball,
    `@types/node@${typesNode.version}`,
    ...withPackages,
  ];
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
  return { dir: projectDir, packageDir, manifest, install, timings };
}

/** Every installed copy of `name` under `dir`'s node_modules, nested ones included: `{ path, version }`. */
export async function installedCopies(dir: string, name: string): Promise<{ path: string; version: string }[]> {
  const found: { path: string; version: string }[] = [];
  const visit = async (modules: string): Promise<void> => {
    let entries: string[];
    try {
      entries = await readdir(modules);
    } catch {
      return;
    }
    const folders = entries.flatMap((entry) => (entry.startsWith('@') ? [] : [entry]));
    for (const scope of entries.filter((entry) => entry.startsWith('@'))) {
      for (const inner of await readdir(join(modules, scope)).catch(() => [] as string[])) folders.push(`${scope}/${inner}`);
    }
    for (const folder of folders) {
      if (folder.startsWith('.')) continue;
      const path = join(modules, folder);
      if (folder === name) {
        const { version } = JSON.parse(await readFile(join(path, 'package.json'), 'utf8')) as { version: string };
        found.push({ path, version });
      }
      await visit(join(path, 'node_modules'));
    }
  };
  await visit(join(dir, 'node_modules'));
  return found;
}

/** Copies a folder of test/consumer/fixtures into the scratch project. */
export async function copyFixture(name: string, scratch: Scratch, to = name): Promise<string> {
  const target = join(scratch.dir, to);
  await cp(join(fixturesDir, name), target, { recursive: true });
  return target;
}
