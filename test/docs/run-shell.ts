// One documented command under `bash -c`, in its own process group so a timeout (or its end) stops everything it
// started: npm, node, wrangler, workerd.
import { type ChildProcess, spawn } from 'node:child_process';

export interface ShellResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the command was stopped at its timeout. */
  readonly timedOut: boolean;
}

export interface ShellOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

/** Signals the child's whole process group; a group already gone is not an error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

// A detached group outlives this process unless stopped: on exit, Ctrl-C or SIGTERM (a CI step's timeout) every
// group still open is killed, then the signal takes its default course.
const open = new Set<ChildProcess>();
const stopOpen = () => {
  for (const child of open) signalGroup(child, 'SIGKILL');
};
process.once('exit', stopOpen);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopOpen();
    process.kill(process.pid, signal);
  });
}

/** Spawns `bash -c command` as a process-group leader with stdin closed. */
export function spawnShell(command: string, options: Omit<ShellOptions, 'timeoutMs'>): ChildProcess {
  const child = spawn('bash', ['-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  open.add(child);
  child.once('close', () => open.delete(child));
  return child;
}

/** Runs a command to its end (or its timeout) and returns its exit and output. */
export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawnShell(command, options);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child, 'SIGKILL');
    }, options.timeoutMs);
    child.once('error', reject);
    // Whatever the command left running in its group (a server it started) ends with it, so pipes close.
    child.once('exit', () => signalGroup(child, 'SIGKILL'));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}
