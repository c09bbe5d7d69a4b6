// Issue #17's attacks on the edge, measured under `wrangler dev` (real workerd) on 127.0.0.1:
//   node --import tsx bench/edge-attack.ts [--only shapes|load] [--seconds 5] [--clients 50]
// "shapes": each hostile body of test/fixtures/hostile-bounds.ts once, with its wall time, workerd's CPU for it, the
// longest /healthz silence and workerd's RSS; "load": 50 clients of normal traffic (a small /v1/validate and a
// /mcp tools/call through an upstream), first alone, then beside one client sending the pattern body in a loop.
// edge/test/workerd/wrangler-load.test.ts asserts on the same load run (`runLoad`).
import { setMaxListeners } from 'node:events';
import { parseArgs } from 'node:util';
import { startHostileEdge } from '../edge/test/helpers/hostile-edge.ts';
import { probeHealth } from '../edge/test/helpers/probe-health.ts';
import { workerUrl } from '../edge/test/helpers/worker-url.ts';
import { mb, settledMemory, workerdMemory, workerRss } from '../edge/test/helpers/workerd-rss.ts';
import {
  bigPrograms,
  distinctPointerBody,
  longPointerBody,
  multiplierBodies,
  patternArgument,
  patternBodies,
} from '../test/fixtures/hostile-bounds.ts';

/** The small tool and schema of the normal traffic. */
export const normalTool = {
  name: 'lookup',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 64 }, days: { type: 'integer', minimum: 1, maximum: 14 } },
    required: ['city'],
    additionalProperties: false,
  },
};
const normalBody = JSON.stringify({ schema: normalTool.inputSchema, instance: { city: 'Utrecht', days: 3 } });

export interface PhaseResult {
  readonly seconds: number;
  /** Normal requests answered (any status), and per second. */
  readonly answered: number;
  readonly rps: number;
  /** Normal answers with a 5xx status, and normal requests that failed outright (network, timeout). */
  readonly serverErrors: number;
  readonly failures: number;
  /** Normal answers that were not the expected 200 verdict (but not a 5xx). */
  readonly wrong: number;
  /**
   * Normal requests in flight when the phase ended, answered later (not counted in `answered`) or given up on 2 s
   * after: about one per client when the edge keeps up, more when it stalls.
   */
  readonly late: number;
  /** The first 5xx answer, for the report. */
  readonly firstServerError?: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The hostile client: requests answered, their statuses, the slowest. */
  readonly hostile: { readonly answered: number; readonly statuses: Record<string, number>; readonly maxMs: number };
}

export interface LoadOptions {
  readonly clients?: number;
  readonly seconds?: number;
  /** Most normal traffic before the baseline, not counted (default 10 s; it stops once throughput levels off). */
  readonly warmupSeconds?: number;
  /** Send /mcp tools/call (through an upstream listing `normalTool`) besides /v1/validate. */
  readonly mcp?: boolean;
  /** The hostile body (a /v1/validate body as JSON text) for the attack phase. */
  readonly hostileBody?: string;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);

/** One phase: `clients` loops of normal traffic for `seconds`, plus the hostile loop when a body is given. */
export async function loadPhase(url: string, options: LoadOptions & { hostile: boolean }): Promise<PhaseResult> {
  const clients = options.clients ?? 50;
  const seconds = options.seconds ?? 5;
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let serverErrors = 0;
  let failures = 0;
  let wrong = 0;
  let late = 0;
  let firstServerError: string | undefined;
  let id = 1;
  // Requests still in flight this long after the phase ends are given up on (they are stuck behind other work).
  const graceMs = 2000;
  const giveUp = new AbortController();
  // Every request of the phase listens on this one signal.
  setMaxListeners(clients * 1000, giveUp.signal);
  const giveUpTimer = setTimeout(() => giveUp.abort(), seconds * 1000 + graceMs);
  const hostile = { answered: 0, statuses: {} as Record<string, number>, maxMs: 0 };
  const stop = new AbortController();

  const normal = async (client: number): Promise<void> => {
    let turn = client;
    while (performance.now() < deadline) {
      const viaMcp = options.mcp === true && turn++ % 2 === 1;
      const started = performance.now();
      try {
        const response = viaMcp
          ? await fetch(`${url}/mcp`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'mcp-protocol-version': '2025-11-25',
                authorization: 'Bearer load',
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: id++,
                method: 'tools/call',
                params: { name: normalTool.name, arguments: { city: 'Utrecht', days: 3 } },
              }),
              signal: giveUp.signal,
            })
          : await fetch(`${url}/v1/validate`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: normalBody,
              signal: giveUp.signal,
            });
        const text = await response.text();
        if (performance.now() > deadline) {
          late++;
          continue;
        }
        latencies.push(performance.now() - started);
        if (response.status >= 500) {
          serverErrors++;
          firstServerError ??= `${response.status} ${text.slice(0, 120)}`;
        } else if (response.status !== 200 || (viaMcp ? !text.includes('"result"') : text !== '{"status":"valid"}')) wrong++;
      } catch {
        if (giveUp.signal.aborted) late++;
        else failures++;
      }
    }
  };

  const attacker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: options.hostileBody,
          signal: AbortSignal.any([stop.signal, AbortSignal.timeout(30_000)]),
        });
        const text = await response.text();
        const code = /"code":"([a-z_]+)"/.exec(text)?.[1] ?? (/"keyword":"maxWork"/.test(text) ? 'maxWork' : '');
        const key = `${response.status}${code === '' ? '' : ` ${code}`}`;
        hostile.statuses[key] = (hostile.statuses[key] ?? 0) + 1;
        hostile.answered++;
        hostile.maxMs = Math.max(hostile.maxMs, performance.now() - started);
      } catch {
        hostile.maxMs = Math.max(hostile.maxMs, performance.now() - started);
        hostile.statuses.unanswered = (hostile.statuses.unanswered ?? 0) + 1;
      }
    }
  };

  const loops = Array.from({ length: clients }, (_, i) => normal(i));
  const attack = options.hostile && options.hostileBody !== undefined ? attacker() : Promise.resolve();
  await Promise.all(loops);
  clearTimeout(giveUpTimer);
  // The attacker's request in flight when the phase ends is not waited for (it may take seconds on unfixed code).
  stop.abort();
  await attack;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    seconds,
    answered: latencies.length,
    rps: latencies.length / seconds,
    serverErrors,
    failures,
    wrong,
    late,
    ...(firstServerError === undefined ? {} : { firstServerError }),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? 0,
    hostile,
  };
}

export interface LoadRun {
  readonly baseline: PhaseResult;
  readonly attack: PhaseResult;
  readonly ratio: number;
}

/** The issue's load run: a baseline, then the same traffic with one hostile client beside it. */
export async function runLoad(url: string, options: LoadOptions = {}): Promise<LoadRun> {
  const hostileBody = options.hostileBody ?? JSON.stringify(patternBodies()[0]);
  // A warm-up so the baseline does not pay for the first compiles, connections and JIT: under wrangler dev this
  // traffic's throughput climbs for 10 s and more after the first request (62 → 135 rps in 3 s steps on a busy
  // machine), and a baseline taken too early flatters the attack (ratios of 1.1–2.7 with 1–8 s of warm-up, 0.31 after
  // minutes of other traffic). Warm up in 2 s steps until one gains under 10% on the one before, for at most 10 s.
  const warmupLimit = (options.warmupSeconds ?? 10) * 1000;
  const warmupStarted = performance.now();
  let previous = 0;
  while (performance.now() - warmupStarted < warmupLimit) {
    const step = await loadPhase(url, { ...options, seconds: 2, hostile: false });
    if (previous > 0 && step.rps < previous * 1.1) break;
    previous = step.rps;
  }
  const baseline = await loadPhase(url, { ...options, hostile: false });
  // Let a worker that is still busy from the warm-up's last requests finish them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const attack = await loadPhase(url, { ...options, hostileBody, hostile: true });
  return { baseline, attack, ratio: baseline.rps === 0 ? 0 : attack.rps / baseline.rps };
}

export function describePhase(name: string, phase: PhaseResult): string {
  const hostile =
    phase.hostile.answered > 0 || Object.keys(phase.hostile.statuses).length > 0
      ? `; hostile: ${phase.hostile.answered} answered (${Object.entries(phase.hostile.statuses)
          .map(([k, v]) => `${k} ×${v}`)
          .join(', ')}), slowest ${phase.hostile.maxMs.toFixed(0)} ms`
      : '';
  return (
    `${name}: ${phase.rps.toFixed(0)} rps (${phase.answered} in ${phase.seconds} s), p50 ${phase.p50Ms.toFixed(1)} ms, ` +
    `p99 ${phase.p99Ms.toFixed(1)} ms, max ${phase.maxMs.toFixed(0)} ms, 5xx ${phase.serverErrors}, failed ${phase.failures}, ` +
    `wrong ${phase.wrong}, late ${phase.late}${hostile}${phase.firstServerError === undefined ? '' : `; first 5xx: ${phase.firstServerError}`}`
  );
}

/** Waits until /healthz answers within 50 ms (the isolate is idle), up to `maxMs`; returns how long that took. */
async function waitIdle(url: string, maxMs = 180_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    const sent = performance.now();
    try {
      await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(maxMs) })).arrayBuffer();
      if (performance.now() - sent < 50) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return performance.now() - started;
}

/**
 * One request under measurement, on an idle isolate: wall time to its answer (or to the client's cap), then
 * workerd's CPU until the isolate is idle again (a request the client gave up on may still be running), and status.
 */
async function measureOne(url: string, path: string, body: string, headers: Record<string, string> = {}, capMs = 60_000) {
  await waitIdle(url);
  const before = workerdMemory();
  const started = performance.now();
  let status: string;
  try {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(capMs),
    });
    const text = await response.text();
    const code = /"code":"?([a-z_0-9-]+)/.exec(text)?.[1];
    const maxWork = /"keyword":"maxWork"/.test(text);
    const plain = text.startsWith('{') ? '' : ` ${JSON.stringify(text.slice(0, 40))}`;
    status = `${response.status}${code ? ` ${code}` : ''}${maxWork ? ' maxWork' : ''}${/"status":"valid"/.test(text) ? ' valid' : ''}${plain}`;
  } catch (error) {
    status = `${(error as Error).name} after ${capMs} ms`;
  }
  const ms = performance.now() - started;
  const busyAfter = await waitIdle(url);
  const after = workerdMemory();
  const cpuMs = after.processes.reduce((sum, p) => sum + p.cpuMs - (before.processes.find((b) => b.pid === p.pid)?.cpuMs ?? 0), 0);
  const restarted = before.processes.some((b) => !after.processes.some((p) => p.pid === b.pid));
  if (busyAfter > 1000) status += ` (busy ${busyAfter.toFixed(0)} ms more)`;
  if (restarted) status += ' (a workerd process ended)';
  const proxy = after.processes.find((p) => p.role === 'proxy');
  return { ms, cpuMs, status, rss: workerRss(after), peak: after.worker?.peak ?? after.peak, proxyRss: proxy?.rss ?? 0 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      clients: { type: 'string', default: '50' },
    },
  });
  const edge = await startHostileEdge({ load: [normalTool], default: [normalTool] });
  const { dev } = edge;
  try {
    const start = workerdMemory();
    console.log(`workerd at start: ${start.processes.map((p) => `${p.role} ${p.pid} ${mb(p.rss)}`).join(', ')}`);
    if (values.only !== 'load') {
      // On the Worker's own socket, as the attacker tests send them (wrangler's dev proxy relays DevTools events).
      const own = await workerUrl(dev);
      const probe = probeHealth(own);
      const rows: string[][] = [
        ['shape', 'wall ms', 'workerd CPU ms', '/healthz silence ms', 'Worker RSS after', 'Worker peak', 'dev proxy RSS', 'answer'],
      ];
      const run = async (name: string, path: string, body: string, headers?: Record<string, string>) => {
        const from = performance.now();
        const one = await measureOne(own, path, body, headers);
        const to = performance.now();
        // One probe interval more, so the probe that waited behind the request has its answer.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const silence = probe.silenceDuring(from, to).toFixed(0);
        rows.push([name, one.ms.toFixed(0), one.cpuMs.toFixed(0), silence, mb(one.rss), mb(one.peak), mb(one.proxyRss), one.status]);
        console.log(rows.at(-1)?.join(' | '));
      };
      const mcpHeaders = (token: string, session?: string) => ({
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${token}`,
        ...(session === undefined ? {} : { 'mcp-session-id': session }),
      });
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      for (const input of [...patternBodies(), longPointerBody(), ...multiplierBodies()])
        await run(input.name, '/v1/validate', JSON.stringify({ schema: input.schema, instance: input.instance }));
      for (let seed = 0; seed < 40; seed += 13) {
        const input = distinctPointerBody(seed);
        await run(input.name, '/v1/validate', JSON.stringify({ schema: input.schema, instance: input.instance }));
      }
      await run('tools/list of the 3 pattern tools', '/mcp', list, mcpHeaders('patterns'));
      for (const key of Object.keys(bigPrograms) as (keyof typeof bigPrograms)[]) {
        const call = { name: `pattern-${key}`, arguments: { text: patternArgument(key).text } };
        const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
        await run(`/mcp tools/call ${bigPrograms[key]} × 300 KB`, '/mcp', body, mcpHeaders('patterns'));
      }
      for (let i = 0; i < 40; i += 13)
        await run(`tools/list 50 × 233 KB, forged session ${i}`, '/mcp', list, mcpHeaders('bulky', `forged-${i}`));
      const unknown = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nowhere', arguments: {} } });
      for (let i = 0; i < 40; i += 13)
        await run(`tools/call unknown tool (lists 50 × 233 KB), forged session ${i}`, '/mcp', unknown, mcpHeaders('bulky', `call-${i}`));
      for (let i = 0; i < 40; i += 13)
        await run(`tools/list 50 × 233 KB names, forged session ${i}`, '/mcp', list, mcpHeaders('long', `long-${i}`));
      await run('tools/list 10,000 tiny tools', '/mcp', list, mcpHeaders('tiny'));
      await probe.stop();
      const end = await settledMemory(workerRss(start), 100 * 1024 * 1024, 10_000);
      console.log(['', ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n'));
      console.log(
        `Worker runtime RSS: start ${mb(workerRss(start))}, after settling ${mb(workerRss(end))}, peak ${mb(end.worker?.peak ?? end.peak)}; ` +
          `all workerd: start ${mb(start.rss)}, end ${mb(end.rss)}`,
      );
    }
    if (values.only !== 'shapes') {
      const options = { clients: Number(values.clients), seconds: Number(values.seconds), mcp: true };
      const load = await runLoad(dev.url, options);
      console.log(describePhase('baseline', load.baseline));
      console.log(describePhase('under attack', load.attack));
      console.log(`ratio ${load.ratio.toFixed(2)} (wanted ≥ 0.50)`);
    }
  } finally {
    await edge.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
