// The memory of the workerd processes a test started, read from /proc. wrangler dev runs two: the Worker's runtime
// (started with --inspector-addr; the Worker, its Durable Objects and caches live there) and wrangler's dev proxy,
// which owns the dev port and relays every request and answer (dev only: production has no such hop). Linux only;
// elsewhere `available` is false and the figures are zero.
import { readdirSync, readFileSync } from 'node:fs';

export interface WorkerdProcess {
  readonly pid: number;
  /** `worker`: the runtime that runs the Worker (it has the inspector); `proxy`: wrangler's dev proxy. */
  readonly role: 'worker' | 'proxy';
  /** Resident set size now, bytes (VmRSS). */
  readonly rss: number;
  /** Peak resident set size, bytes (VmHWM). */
  readonly peak: number;
  /** Cumulative CPU time (user + system), ms. */
  readonly cpuMs: number;
}

export interface WorkerdMemory {
  readonly available: boolean;
  readonly processes: readonly WorkerdProcess[];
  /** The Worker's runtime process, when one is found. */
  readonly worker?: WorkerdProcess;
  /** Sums over `processes`. */
  readonly rss: number;
  readonly peak: number;
  readonly cpuMs: number;
}

const clockTicks = 100; // USER_HZ on Linux

/** Every process of the table: pid → parent pid and comm. */
function processTable(): Map<number, { ppid: number; comm: string; utime: number; stime: number }> {
  const table = new Map<number, { ppid: number; comm: string; utime: number; stime: number }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid … utime(14) stime(15); comm may hold spaces or parentheses: read around the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      table.set(Number(entry), {
        comm: stat.slice(stat.indexOf('(') + 1, close),
        ppid: Number(fields[1]),
        utime: Number(fields[11]),
        stime: Number(fields[12]),
      });
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

/** The workerd processes descended from `ancestor` (default: this process), with their memory and CPU. */
export function workerdMemory(ancestor = process.pid): WorkerdMemory {
  const table = processTable();
  if (table.size === 0) return { available: false, processes: [], rss: 0, peak: 0, cpuMs: 0 };
  const descends = (pid: number): boolean => {
    for (let at = table.get(pid)?.ppid; at !== undefined && at > 1; at = table.get(at)?.ppid) if (at === ancestor) return true;
    return false;
  };
  const processes: WorkerdProcess[] = [];
  for (const [pid, info] of table) {
    if (!info.comm.startsWith('workerd') || !descends(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      processes.push({
        pid,
        role: commandLine.includes('--inspector-addr') ? 'worker' : 'proxy',
        rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024,
        peak: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024,
        cpuMs: ((info.utime + info.stime) * 1000) / clockTicks,
      });
    } catch {
      // gone
    }
  }
  const sum = (pick: (p: WorkerdProcess) => number) => processes.reduce((total, p) => total + pick(p), 0);
  const worker = processes.find((p) => p.role === 'worker');
  return {
    available: processes.length > 0,
    processes,
    ...(worker === undefined ? {} : { worker }),
    rss: sum((p) => p.rss),
    peak: sum((p) => p.peak),
    cpuMs: sum((p) => p.cpuMs),
  };
}

/** The RSS an acceptance speaks of: the Worker's runtime process, or every workerd process summed if none is found. */
export const workerRss = (memory: WorkerdMemory): number => memory.worker?.rss ?? memory.rss;

/**
 * Waits up to `settleMs` for `pick` (default: the Worker runtime's RSS) to come back within `withinBytes` of
 * `baseline`, sampling every 250 ms; returns the last reading (the caller asserts on it). Memory freed by V8 goes
 * back to the OS lazily, hence the wait.
 */
export async function settledMemory(
  baseline: number,
  withinBytes: number,
  settleMs = 5000,
  pick: (memory: WorkerdMemory) => number = workerRss,
  ancestor = process.pid,
): Promise<WorkerdMemory> {
  const deadline = performance.now() + settleMs;
  let reading = workerdMemory(ancestor);
  while (pick(reading) - baseline > withinBytes && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    reading = workerdMemory(ancestor);
  }
  return reading;
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
