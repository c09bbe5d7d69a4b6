// Section 6b: POST /v1/validate on the edge Worker against a trivial Worker that answers a tiny JSON response, in
// the same workerd and the same setting (issue 21: p50 within 1.15x of that floor). Both settings of section 6:
// - `wrangler dev`: the edge Worker as `npm run edge` runs it, the trivial Worker under its own `wrangler dev`;
// - `workerd`: each Worker's deploy bundle through Miniflare with the options wrangler derives from its wrangler.jsonc
//   (for the edge Worker: the assets router, with run_worker_first sending /v1/* to the Worker), no dev proxy.
// Requests alternate path by path on kept-alive loopback connections; each round is a warm-up then `requests` timed
// requests per path; min/median/max over the rounds.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWranglerDev } from '../edge/test/helpers/wrangler-dev.ts';
import { createEngine } from '../src/engine/index.ts';
import { startDevWorker } from './gateway-latency.ts';
import { median } from './harness.ts';
import { realCorpus } from './real-corpus.ts';
import { sampleValid } from './sample-instance.ts';
import { percentile, type Spread, spreadOf } from './spread.ts';
import { bundleEdgeWorker, edgeConfigPath, type RunningWorker, startWorkerd } from './workerd-direct.ts';

export type EdgeSetting = 'wrangler dev' | 'workerd';

/** Issue 21's bar: /v1/validate's p50 as a multiple of the trivial Worker's, same setting. */
export const edgeValidateTarget = 1.15;

/** The small realistic body of the issue: one missing-free object, an integer under its maximum. */
export const smallValidateBody = JSON.stringify({
  schema: { type: 'object', properties: { days: { type: 'integer', maximum: 10 } }, required: ['city'] },
  instance: { city: 'x', days: 3 },
});

export interface EdgeCase {
  readonly name: string;
  readonly body: string;
}

export interface PathTimes {
  /** Per round. */
  readonly p50Ms: readonly number[];
  readonly p99Ms: readonly number[];
}

export interface EdgeCaseResult {
  readonly name: string;
  readonly bodyBytes: number;
  readonly validate: PathTimes;
  /** /v1/validate p50 ÷ the trivial Worker's p50, per round. */
  readonly p50Ratio: Spread;
  readonly p99Ratio: Spread;
}

export interface EdgeSettingResult {
  readonly setting: EdgeSetting;
  /** The trivial Worker (POST, body read, `{"status":"valid"}`) and the edge Worker's GET /healthz, for reference. */
  readonly trivial: PathTimes;
  readonly healthz: PathTimes;
  readonly cases: readonly EdgeCaseResult[];
}

export interface EdgeValidate {
  readonly requests: number;
  readonly warmup: number;
  readonly rounds: number;
  readonly settings: readonly EdgeSettingResult[];
  /** 1, 5 and 15 minute load averages before and after. */
  readonly load: readonly [string, string];
}

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The floor: a Worker that reads the request body and answers `{"status":"valid"}` (what /v1/validate answers a
 * valid instance), written next to a wrangler.jsonc of the edge Worker's compatibility date, without assets.
 */
const trivialSource = `// Written by bench/edge-validate-latency.ts: the trivial Worker floor of /v1/validate.
export default {
  async fetch(request) {
    if (request.method === 'POST') await request.arrayBuffer();
    return Response.json({ status: 'valid' });
  },
};
`;

function writeTrivialWorker(): { config: string; script: string } {
  const dir = join(root, '.cache', 'bench-edge-trivial');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'worker.js');
  const config = join(dir, 'wrangler.jsonc');
  writeFileSync(script, trivialSource);
  writeFileSync(config, JSON.stringify({ name: 'schemaval-bench-trivial', main: 'worker.js', compatibility_date: '2026-04-20' }, null, 2));
  return { config, script };
}

/**
 * A real tool from test/fixtures/real-world: the first from the 90th percentile of input-schema size up with a sampled
 * call the engine judges valid (the bench checks the edge answers so too before timing it).
 */
export function realToolCase(): EdgeCase | undefined {
  const engine = createEngine();
  const tools = [...realCorpus()]
    .map((tool) => ({ tool, bytes: JSON.stringify(tool.inputSchema).length }))
    .sort((a, b) => a.bytes - b.bytes);
  for (let i = Math.floor(tools.length * 0.9); i < tools.length; i++) {
    const { tool, bytes } = tools[i] as (typeof tools)[number];
    const instance = [0, 1, 2, 3]
      .map((variant) => sampleValid(tool.inputSchema, variant))
      .find((candidate) => engine.validate(tool.inputSchema as object, candidate).status === 'valid');
    if (instance === undefined) continue;
    const name = `real tool ${tool.name.split('__').at(-1)} (p90 schema, ${(bytes / 1024).toFixed(1)} KiB)`;
    return { name, body: JSON.stringify({ schema: tool.inputSchema, instance }) };
  }
  return undefined;
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Path {
  readonly key: string;
  run(): Promise<string>;
}

const post = (url: string, body: string): (() => Promise<string>) => {
  return async () => {
    const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
    return text;
  };
};
const get = (url: string): (() => Promise<string>) => {
  return async () => {
    const response = await fetch(url);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    return text;
  };
};

async function startSetting(setting: EdgeSetting): Promise<{ edge: RunningWorker; trivial: RunningWorker }> {
  const trivial = writeTrivialWorker();
  if (setting === 'wrangler dev') {
    const edge = await startWranglerDev();
    try {
      return { edge, trivial: await startDevWorker(trivial.config, {}) };
    } catch (error) {
      await edge.stop();
      throw error;
    }
  }
  const bundle = await bundleEdgeWorker();
  const edge = await startWorkerd(edgeConfigPath, bundle, {});
  try {
    return { edge, trivial: await startWorkerd(trivial.config, trivial.script, {}) };
  } catch (error) {
    await edge.stop();
    throw error;
  }
}

async function measureSetting(
  setting: EdgeSetting,
  cases: readonly EdgeCase[],
  requests: number,
  warmup: number,
  rounds: number,
): Promise<EdgeSettingResult> {
  const { edge, trivial } = await startSetting(setting);
  try {
    const smallest = cases[0]?.body ?? smallValidateBody;
    const paths: Path[] = [
      { key: 'trivial', run: post(`${trivial.url}/v1/validate`, smallest) },
      { key: 'healthz', run: get(`${edge.url}/healthz`) },
      ...cases.map((edgeCase, i) => ({ key: `case${i}`, run: post(`${edge.url}/v1/validate`, edgeCase.body) })),
    ];
    for (const [i, edgeCase] of cases.entries()) {
      const answer = await (paths[i + 2] as Path).run();
      if (!answer.startsWith('{"status":"valid"')) throw new Error(`${edgeCase.name}: /v1/validate answered ${answer.slice(0, 200)}`);
    }
    const perRound = new Map(paths.map((path) => [path.key, { p50Ms: [] as number[], p99Ms: [] as number[] }]));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < warmup; i++) for (const path of paths) await path.run();
      const times = new Map(paths.map((path) => [path.key, [] as number[]]));
      for (let i = 0; i < requests; i++) {
        for (const path of paths) {
          const started = performance.now();
          await path.run();
          times.get(path.key)?.push(performance.now() - started);
        }
      }
      for (const path of paths) {
        const values = times.get(path.key) as number[];
        const into = perRound.get(path.key) as { p50Ms: number[]; p99Ms: number[] };
        into.p50Ms.push(median(values));
        into.p99Ms.push(percentile(values, 99));
      }
    }
    const of = (key: string): PathTimes => perRound.get(key) as PathTimes;
    const floor = of('trivial');
    return {
      setting,
      trivial: floor,
      healthz: of('healthz'),
      cases: cases.map((edgeCase, i) => {
        const validate = of(`case${i}`);
        return {
          name: edgeCase.name,
          bodyBytes: Buffer.byteLength(edgeCase.body),
          validate,
          p50Ratio: spreadOf(validate.p50Ms.map((v, r) => v / (floor.p50Ms[r] as number))),
          p99Ratio: spreadOf(validate.p99Ms.map((v, r) => v / (floor.p99Ms[r] as number))),
        };
      }),
    };
  } finally {
    await trivial.stop().catch(() => undefined);
    await edge.stop().catch(() => undefined);
  }
}

/** Both settings (or those named), one after the other: the Workers of one setting never share the cores with the other's. */
export async function measureEdgeValidate(
  settings: readonly EdgeSetting[] = ['wrangler dev', 'workerd'],
  { requests = 500, warmup = 100, rounds = 3, realTool = true } = {},
): Promise<EdgeValidate> {
  const cases: EdgeCase[] = [{ name: 'small body', body: smallValidateBody }];
  const real = realTool ? realToolCase() : undefined;
  if (real !== undefined) cases.push(real);
  const before = loadAverage();
  const results: EdgeSettingResult[] = [];
  for (const setting of settings) results.push(await measureSetting(setting, cases, requests, warmup, rounds));
  return { requests, warmup, rounds, settings: results, load: [before, loadAverage()] };
}

const msSpread = (values: readonly number[]): string => {
  const spread = spreadOf(values);
  return `${[spread.min, spread.median, spread.max].map((v) => v.toFixed(2)).join('/')} ms`;
};
const ratioSpread = (spread: Spread): string => `${[spread.min, spread.median, spread.max].map((v) => v.toFixed(2)).join('/')}x`;

/** The small body's p50 ratio in one setting (the issue 21 figure is the workerd one). */
export function edgeValidateRatio(result: EdgeValidate | undefined, setting: EdgeSetting = 'workerd'): Spread | undefined {
  return result?.settings.find((s) => s.setting === setting)?.cases[0]?.p50Ratio;
}

/** Section 6b's lines: p50/p99 per path and setting (min/median/max over the rounds), then the ratios to the floor. */
export function edgeValidateLines(result: EdgeValidate): string[] {
  const lines = [
    `  ${result.requests} requests per path per round, alternating, after ${result.warmup} per path of warm-up; ${result.rounds} rounds, ` +
      `min/median/max over them; load average ${result.load[0]} before, ${result.load[1]} after`,
  ];
  for (const setting of result.settings) {
    lines.push(`  ${setting.setting}`);
    const row = (label: string, times: PathTimes) =>
      lines.push(`    ${label.padEnd(58)} p50 ${msSpread(times.p50Ms).padStart(22)}  p99 ${msSpread(times.p99Ms).padStart(22)}`);
    row('trivial Worker, POST → {"status":"valid"} (the floor)', setting.trivial);
    row('edge Worker, GET /healthz (reference)', setting.healthz);
    for (const edgeCase of setting.cases) row(`edge POST /v1/validate, ${edgeCase.name}, ${edgeCase.bodyBytes} B`, edgeCase.validate);
  }
  return lines;
}

/** The summary lines: /v1/validate ÷ trivial Worker per setting and case, PASS/MISS on the median round. */
export function edgeValidateSummary(result: EdgeValidate): string[] {
  const lines: string[] = [];
  for (const setting of result.settings) {
    for (const edgeCase of setting.cases) {
      const pass = edgeCase.p50Ratio.median <= edgeValidateTarget ? 'PASS' : 'MISS';
      lines.push(
        `  ${setting.setting.padEnd(12)} ${edgeCase.name.padEnd(48)} p50 ${ratioSpread(edgeCase.p50Ratio)} ${pass}` +
          `   p99 ${ratioSpread(edgeCase.p99Ratio)}`,
      );
    }
  }
  return lines;
}
