// The Worker's own address under `wrangler dev`, behind wrangler's dev proxy. The dev port belongs to that proxy (a
// second workerd), whose inspector relay posts every DevTools event of the Worker's runtime to wrangler as one HTTP
// request: with the Network domain on, each 4 KB a subrequest body arrives is one event, so a 3.7 MB upstream list
// costs the proxy ~900 requests and a few hundred ms of its single thread. Production has no such hop. What the
// attacker tests bound — the Worker staying answered — is probed here, on the socket the runtime itself listens on.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { workerdMemory } from './workerd-rss.ts';
import type { WranglerDev } from './wrangler-dev.ts';

/** TCP ports on 127.0.0.1 that process `pid` listens on (Linux /proc; empty elsewhere). */
function listeningPorts(pid: number): number[] {
  let inodes: Set<string>;
  let table: string;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined; // closed while we looked
          }
        })
        .filter((inode): inode is string => inode !== undefined),
    );
    table = readFileSync(`/proc/${pid}/net/tcp`, 'utf8');
  } catch {
    return [];
  }
  const ports: number[] = [];
  // Each row: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …; st 0A is LISTEN.
  for (const row of table.split('\n').slice(1)) {
    const fields = row.trim().split(/\s+/);
    const [address, port] = (fields[1] ?? '').split(':');
    if (fields[3] !== '0A' || address !== '0100007F' || port === undefined) continue;
    if (inodes.has(fields[9] ?? '')) ports.push(Number.parseInt(port, 16));
  }
  return ports;
}

/**
 * Where the attacker tests and their bench send requests and probes: `http://127.0.0.1:PORT` of the Worker's runtime
 * under `dev` (the first of its listening sockets that answers `/healthz` as the Worker does). On Linux, where CI runs,
 * finding none is an error, never a quiet fall back to the dev port; without /proc the dev port stands in.
 */
export async function workerUrl(dev: Pick<WranglerDev, 'url' | 'pid'>): Promise<string> {
  const own = await ownSocketUrl(dev.pid);
  if (own !== undefined) return own;
  if (process.platform === 'linux') throw new Error("no socket of the Worker's runtime answers /healthz");
  return dev.url;
}

async function ownSocketUrl(wranglerPid: number): Promise<string | undefined> {
  const runtime = workerdMemory(wranglerPid).worker;
  if (runtime === undefined) return undefined;
  for (const port of listeningPorts(runtime.pid)) {
    const url = `http://127.0.0.1:${port}`;
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
      const body = (await response.json()) as { ok?: unknown; engineVersion?: unknown };
      if (response.ok && body.ok === true && typeof body.engineVersion === 'string') return url;
    } catch {
      // the inspector's port, or another socket of the runtime: not the Worker
    }
  }
  return undefined;
}
