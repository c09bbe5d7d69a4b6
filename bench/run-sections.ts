// The sections of `npm run bench` (bench/run.ts reads the command line first): validation throughput and compile
// cost of schemaval against raw @cfworker/json-schema, ajv and the MCP SDK's validator providers, on small / medium /
// large tool input schemas, in one process; what the isolation layer (worker mode) adds to a bare worker_threads round
// trip; and issue 21's targets on the real and the generated corpus.
import { readFileSync } from 'node:fs';
import { buildCli } from '../scripts/build.mjs';
import { createEngine } from '../src/engine/index.ts';
import { nodeHashText } from '../src/worker/node-hash.ts';
import { buildLargeSchema } from '../test/fixtures/real-world/large-schema.ts';
import { benchOnly } from './bench-args.ts';
import { buildDist } from './build-dist.ts';
import { bytesLines, measureBytes } from './bytes.ts';
import { capacityLines, measureCapacity } from './capacity.ts';
import { type CliStart, cliStartLines, cliStartSummary, cliStartTarget, measureCliStart } from './cli-start.ts';
import { coldPerRound, measureColdCompile } from './cold-compile.ts';
import { type CompileTaskId, compileTasks } from './compile-tasks.ts';
import { compiledTable, hasCompiledEngine, loadCompiledEngine, measureCompiledEngine, sourcesNewerThanDist } from './compiled-engine.ts';
import { type Contender, checkAgreement, createContenders } from './contenders.ts';
import { buildCorpus, corpusSize, corpusStats, largeSizesKiB, largeToolSchema } from './corpus.ts';
import { prepareCalls } from './corpus-calls.ts';
import { type CorpusCompile, corpusCompileLines, measureCorpusCompile } from './corpus-compile.ts';
import { type CorpusLint, corpusLintLines, measureCorpusLint } from './corpus-lint.ts';
import { corpusPathLines, measureCorpusPaths } from './corpus-paths.ts';
import {
  type EdgeValidate,
  edgeValidateLines,
  edgeValidateSummary,
  edgeValidateTarget,
  measureEdgeValidate,
} from './edge-validate-latency.ts';
import { describeEnvironment } from './environment.ts';
import { type BenchSchema, type Fixture, fixtures } from './fixtures.ts';
import { formatTable } from './format-table.ts';
import { formatNs, formatSpread } from './format-units.ts';
import {
  type GatewayLatency,
  gatewayLatencyLines,
  gatewayLatencySummary,
  latencyTargets,
  measureGatewayLatency,
} from './gateway-latency.ts';
import { defaultHarnessOptions, type Measurement, measure, pairedDifference } from './harness.ts';
import { type HostOverhead, measureHostOverhead } from './host-overhead.ts';
import {
  hostileLines,
  type InvalidResult,
  invalidCases,
  invalidSummaryLines,
  invalidTable,
  invalidTarget,
  measureInvalidPath,
} from './invalid-path.ts';
import { burstSize, measureIsolation, pipelinedOptions, sequentialOptions } from './isolation.ts';
import {
  breakdownLines,
  busyTable,
  type IsolationTargets,
  isolationSummaryLines,
  pipelinedTable,
  sequentialTable,
  startupLine,
} from './isolation-report.ts';
import { type CorpusSide, type Issue21Inputs, issue21Lines } from './issue-21-targets.ts';
import { largeCaseLines, measureAllWrong, measureLargeCase } from './large-cases.ts';
import { lookupTasks } from './lookup-tasks.ts';
import { measurePatternCost, patternCostTable } from './pattern-cost.ts';
import { realCopies, realCorpus, realServers } from './real-corpus.ts';
import { realFixtures } from './real-fixtures.ts';
import {
  type CompileResults,
  compileRatioLines,
  compileTable,
  fixtureTable,
  type InstanceKind,
  summaryLines,
  type ValidationResult,
  validationTable,
} from './report.ts';
import { formatSpreadOf } from './spread.ts';
import { targetLines } from './targets.ts';

/** Acceptance bar: schemaval's hot path within this factor of raw cfworker on valid instances. */
const target = 1.3;
/** Acceptance bars of the isolation layer (section 4). */
const isolationTargets: IsolationTargets = { sequential: 1.2, pipelined: 0.5 };

const only = benchOnly();
const full = only === undefined;
const forTargets = full || only === 'targets';
/** `--only contenders`: section 1 alone. */
const runValidation = forTargets || only === 'contenders';
const runIsolation = forTargets || only === 'isolation';
/** `--only corpus`: section 11 alone. */
const runCorpus = forTargets || only === 'corpus';
const runGateway = full || only === 'gateway';
const runInvalid = full || only === 'invalid';
/** `--only cli`: section 9 alone. */
const runCli = full || only === 'cli';
/** `--only compiled`: section 10 alone. */
const runCompiled = full || only === 'compiled';
/** `--only real`: section 12 alone (issue 21 on both corpora; its target table needs section 5 too). */
const runReal = forTargets || only === 'real';

const started = performance.now();
const options = defaultHarnessOptions;
const engine = createEngine();
/** 1, 5 and 15 minute load averages, to say how busy the shared machine was. */
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const indent = (lines: readonly string[]): string => lines.map((line) => `  ${line}`).join('\n');

console.log('schemaval benchmark');
console.log(describeEnvironment());
console.log(
  `harness: ${options.warmupMs} ms warm-up per task, then rounds of ~${options.batchMs} ms batches with the tasks of a comparison ` +
    `interleaved (${options.minRounds}–${options.maxRounds} rounds, fitted to ~${options.budgetMs / 1000} s per comparison); ` +
    'times are medians per call (± median absolute deviation), ratios are medians of per-round ratios',
);

const validation: ValidationResult[] = [];
if (runValidation) {
  const benchSchemas: BenchSchema[] = [...fixtures, ...realFixtures()];
  const prepared: { fixture: BenchSchema; contenders: Contender[] }[] = [];
  for (const fixture of benchSchemas) {
    const contenders = await createContenders(fixture, engine);
    await checkAgreement(fixture, contenders);
    prepared.push({ fixture, contenders });
  }
  console.log('\nFixtures (every contender agrees: the valid arguments are valid, the invalid ones invalid)\n');
  console.log(fixtureTable(benchSchemas));

  console.log('\n1. Validation, per call (×cf = time ÷ raw cfworker Validator with its defaults, on the same arguments)');
  console.log(
    '   schemaval short-circuits first and walks an invalid instance again in full for all its issues; it treats "format" as an\n' +
      '   annotation for tool schemas (docs/architecture.md#schema-policy-and-refusal-codes), and so do the ajv and hyperjump rows; raw cfworker\n' +
      '   and the SDK providers assert it. SDK rows: the validator its Client caches per tool after listTools, then getValidator(schema)(args)\n' +
      '   on every call as its Server checks elicitation answers (same schema object: ajv hits its cache, cfworker rebuilds). hyperjump: compiled\n' +
      '   once (async), then its synchronous validator; FLAG stops at the verdict, BASIC lists every error',
  );
  for (const { fixture, contenders } of prepared) {
    const byKind = {} as ValidationResult['byKind'];
    for (const kind of ['valid', 'invalid'] as const satisfies readonly InstanceKind[]) {
      const instance = fixture[kind];
      const tasks = contenders.map((contender) => ({
        name: contender.id,
        async: contender.async,
        run: () => contender.validate(instance),
      }));
      const measured = await measure(tasks, options);
      byKind[kind] = new Map(contenders.map((contender, i) => [contender.id, measured[i] as Measurement]));
    }
    const result = { fixture, contenders, byKind };
    validation.push(result);
    const rounds = (kind: InstanceKind): number => (byKind[kind].get('cfworker') as Measurement).samples.length;
    console.log(`\n${fixture.name}: ${fixture.description} (${rounds('valid')} / ${rounds('invalid')} rounds)\n`);
    console.log(validationTable(result));
  }
}
let compileResults: CompileResults | undefined;
if (forTargets) {
  console.log('\n2. Compile and cache hits, per call\n');
  const compileNames = new Map<CompileTaskId, string>();
  const compiled = new Map<Fixture['name'], ReadonlyMap<CompileTaskId, Measurement>>();
  for (const fixture of fixtures) {
    const tasks = compileTasks(fixture, engine);
    const measured = await measure(tasks, options);
    for (const task of tasks) compileNames.set(task.id, task.name);
    compiled.set(fixture.name, new Map(tasks.map((task, i) => [task.id, measured[i] as Measurement])));
  }
  compileResults = compiled;
  console.log(compileTable(fixtures, compileNames, compileResults));
  console.log('\n  Cold compile ratios (structuredClone subtracted from cfworker and ajv):');
  console.log(indent(compileRatioLines(fixtures, compileResults)));
}
if (full) {
  console.log('\n3. Reaching a compiled schema by fingerprint (validation itself ~free: {} against {type:"object"})\n');
  const lookups = await lookupTasks(engine);
  const lookupMeasured = await measure(lookups, options);
  const direct = lookupMeasured[0] as Measurement;
  console.log(
    formatTable(
      [
        ['path', 'per call', '', 'added by the lookup'],
        ...lookups.map((task, i) => {
          const m = lookupMeasured[i] as Measurement;
          return [task.name, formatNs(m.medianNs), formatSpread(m.spread), i === 0 ? '' : formatNs(pairedDifference(m, direct))];
        }),
      ],
      ['left', 'right', 'right', 'right'],
    ),
  );
}

let isolation: Awaited<ReturnType<typeof measureIsolation>> | undefined;
if (runIsolation) {
  console.log("\n4. Isolation: schemaval's worker mode against a bare worker_threads round trip, on each fixture's valid arguments");
  const bursts = fixtures.map((fixture) => `${fixture.name} ${burstSize[fixture.name]}`).join(', ');
  console.log(
    "   floor = a worker that posts each message straight back; Comlink = the same echo behind comlink's node adapter;\n" +
      "   client = schemaval's worker client sending a stats op (batching, data lane, shared-memory progress, watchdog; the least engine work);\n" +
      `   pipelined = bursts of N calls issued at once (${bursts}), time per call = burst ÷ N; the client packs up\n` +
      '   to 256 calls into one message, so it can beat the one-message-per-call floor; rounds of ' +
      `~${sequentialOptions.batchMs} ms (sequential) and ~${pipelinedOptions.batchMs} ms (pipelined) batches, medians\n`,
  );
  const isolationStarted = performance.now();
  isolation = await measureIsolation(fixtures);
  console.log(sequentialTable(isolation));
  console.log('');
  console.log(pipelinedTable(isolation));
  console.log('\n  Where the time goes (each step = paired difference to the row above it in the tables):');
  console.log(indent(breakdownLines(isolation)));
  console.log('\n  Busy time (event-loop utilisation of each thread, per call; separate short runs of each path, medians):\n');
  console.log(busyTable(isolation));
  console.log(`\n  ${startupLine(isolation)}; section 4 took ${((performance.now() - isolationStarted) / 1000).toFixed(1)} s`);
}

let host: HostOverhead | undefined;
let gateway: GatewayLatency | undefined;
if (forTargets) {
  console.log('\n5. withSchemaValidation: callTool over the SDK in-memory transport (real Client and Server, one echo tool)\n');
  host = await measureHostOverhead();
  const row = (label: string, m: Measurement) =>
    `  ${label.padEnd(44)} ${(m.medianNs / 1000).toFixed(1).padStart(8)} µs  ±${Math.round(m.spread * 100)}%`;
  console.log(row('plain client (request)', host.plain));
  console.log(row('withSchemaValidation, inline validator', host.inline));
  console.log(row('withSchemaValidation, worker validator', host.worker));
}
if (runGateway) {
  console.log('\n6. tools/call through the /mcp gateway in real workerd vs the same client calling the upstream directly, loopback');
  console.log("   wrangler dev: as `npm run edge` runs it (wrangler's proxy Worker and DevTools session in front of the Worker);");
  console.log('   workerd: the deploy bundle in the same workerd via Miniflare with the options of wrangler.jsonc, no dev proxy;');
  console.log('   forward-only Worker: forwards /mcp unread, in the same setting (the floor of any Worker there)\n');
  gateway = await measureGatewayLatency(300);
  console.log(gatewayLatencyLines(gateway).join('\n'));
}
/** Section 6b: both settings with section 6; `--only targets` takes the workerd setting alone (~20 s, no wrangler dev). */
let edgeValidate: EdgeValidate | undefined;
if (runGateway || forTargets) {
  const settings = runGateway ? (['wrangler dev', 'workerd'] as const) : (['workerd'] as const);
  console.log(
    `\n6b. POST /v1/validate on the edge Worker vs a trivial Worker answering {"status":"valid"}, same workerd, ${settings.join(' and ')}`,
  );
  console.log('   trivial Worker: reads the POST body, answers a tiny JSON response; its own wrangler.jsonc (no assets), same');
  console.log('   compatibility date; edge: the gateway Worker, /v1/* answered before the assets router (run_worker_first)\n');
  edgeValidate = await measureEdgeValidate(settings);
  console.log(edgeValidateLines(edgeValidate).join('\n'));
}

let invalid: InvalidResult[] | undefined;
if (runInvalid) {
  console.log('\n7. Invalid instances: schemaval (issues in our words, capped, bounded) vs cfworker shortCircuit=false and ajv allErrors');
  console.log(
    '   each schema\'s wrong instance; "real 84 KB" is the real-world-sized schema with a 240 KB instance whose 10 resources fail every anyOf branch\n',
  );
  invalid = await measureInvalidPath(invalidCases(fixtures));
  console.log(invalidTable(invalid));
  console.log('\n   Hostile inputs of issue #9, once each in-process (compile + validate; before: up to hours, or a dead heap)\n');
  console.log(hostileLines(engine.policy.timeBudgetMs).join('\n'));

  console.log('\n8. Patterns: the linear-time matcher (decision 009) vs the backtracking RegExp, per check as the validator makes it');
  console.log("   (construct + test; schemaval = inside the scope that swaps in the linear matcher, cached); the fixtures' patterns\n");
  console.log(patternCostTable(await measurePatternCost()));
}

let cliStart: CliStart | undefined;
if (runCli) {
  console.log('\n9. CLI start: wall time of the installed command (bin/schemaval.js → the esbuild bundle dist/cli.js), median of');
  console.log('   21 runs, each interleaved with the floor `node -e 0`\n');
  await buildCli();
  cliStart = measureCliStart();
  console.log(indent(cliStartLines(cliStart)));
}

if (runCompiled) {
  console.log('\n10. The engine as installed (dist/, compiled by tsc) vs the sources under tsx, compileSchema().validate\n');
  if (!hasCompiledEngine()) buildDist();
  console.log(compiledTable(await measureCompiledEngine(fixtures)));
}

let corpusCompile: CorpusCompile | undefined;
let corpusLint: CorpusLint | undefined;
if (runCorpus) {
  const corpus = buildCorpus();
  const stats = corpusStats(corpus);
  console.log(
    `\n11. The corpus (bench/corpus.ts): ${stats.tools} tools, ${stats.distinctInputs} distinct input schemas, ` +
      `${(stats.bytes / 1024 / 1024).toFixed(1)} MiB of JSON, the largest input schema ${Math.round(stats.largestBytes / 1024)} KiB`,
  );
  console.log('   a. Validators for every tool: raw cfworker cold vs compileTools warm on a fresh engine (medians per pass)\n');
  corpusCompile = await measureCorpusCompile(corpus, createEngine());
  console.log(indent(corpusCompileLines(corpusCompile, corpus)));
  console.log('\n   b. `schemaval lint FILE` of the built CLI (dist/cli.js), wall time\n');
  if (!runCli) await buildCli();
  corpusLint = measureCorpusLint(corpus);
  console.log(indent(corpusLintLines(corpusLint, corpus.length)));
}

let issue21: Issue21Inputs | undefined;
if (runReal) {
  if (!runCli && !runCorpus) await buildCli();
  const real21 = realCorpus();
  const generated21 = buildCorpus();
  const realStats = corpusStats(real21);
  console.log(
    `\n12. Issue 21 on the real corpus (test/fixtures/real-world/servers: ${realServers().length} MCP server packages, ${realStats.tools} tools, ` +
      `${realStats.distinctInputs} distinct input schemas, ${Math.round(realStats.bytes / 1024)} KiB, the largest input schema ` +
      `${(realStats.largestBytes / 1024).toFixed(1)} KiB) and the generated one (section 11); load average ${loadAverage()}`,
  );
  const sections12Started = performance.now();
  if (!hasCompiledEngine()) buildDist();
  const compiled = await loadCompiledEngine();
  const stale = sourcesNewerThanDist();
  if (stale.length > 0)
    console.log(`\n   note: dist/ is older than ${stale.length} source file(s) (${stale.slice(0, 3).join(', ')}): run npm run build first`);
  const sides: { real: CorpusSide; generated: CorpusSide } = { real: {}, generated: {} };
  const largeSchemas = { real: buildLargeSchema(), generated: largeToolSchema(Math.max(...largeSizesKiB), 0) };
  for (const side of ['real', 'generated'] as const) {
    const tools = side === 'real' ? real21 : generated21;
    const sideEngine = createEngine();
    const prepared = prepareCalls(tools, sideEngine);
    console.log(
      `\n   ${side}: ${prepared.tools} tools, ${prepared.refused} refused by the engine, ${prepared.unsampled} without a sampled valid call; ` +
        `${prepared.calls.length} calls (${prepared.calls.filter((call) => call.wrong !== undefined).length} with a wrong one)`,
    );
    const paths = await measureCorpusPaths(sideEngine, prepared.calls, side === 'real' ? 1 : 6);
    console.log(indent(corpusPathLines(paths)));
    const large = await measureLargeCase(sideEngine, largeSchemas[side], '7');
    console.log(indent(largeCaseLines(large, side === 'real' ? 'real 84 KB' : `generated ${Math.max(...largeSizesKiB)} KiB`)));
    // The engine as installed (dist/, as `schemaval/engine` ships it; the CLI and the Node worker bundle the same
    // code), hashed with node:crypto as the Node worker hashes; the portable SHA-256 of browsers and workerd apart,
    // and the sources under tsx (its keepNames wrappers cost ~10% here) for comparison with runs before this one.
    // 15 rounds: one real-corpus compile takes ~15 ms, so 5 rounds left the median to a single noisy one.
    const cold = measureColdCompile(tools, 15, compiled.nodeHashText, compiled.engine.createEngine);
    const coldPortable = measureColdCompile(tools, 15, undefined, compiled.engine.createEngine);
    const coldSources = measureColdCompile(tools, 15, nodeHashText);
    for (const [run, how] of [
      [cold, 'dist/, node:crypto'],
      [coldPortable, 'dist/, @noble/hashes'],
      [coldSources, 'sources under tsx, node:crypto'],
    ] as const) {
      console.log(
        `     cold compileTools (fresh engine, ${how}) ${formatSpreadOf(run.schemavalMs, (v) => v.toFixed(0))} ms vs raw cfworker ` +
          `${formatSpreadOf(run.cfworkerMs, (v) => v.toFixed(0))} ms for ${run.schemas} schemas (copies included), a compile; min/median/max of ${run.runs} rounds of ${coldPerRound}`,
      );
    }
    const lintTools = side === 'real' ? realCopies(real21, corpusSize, true) : generated21;
    const lint = measureCorpusLint(lintTools);
    console.log(indent(corpusLintLines(lint, lintTools.length).map((line) => `   ${line}`)));
    sides[side] = { paths, large, cold, coldPortable, coldSources, lint };
  }
  const realAsGatheredLint = measureCorpusLint(real21, 3);
  console.log(
    `\n   lint of the real corpus as gathered (${real21.length} tools): ${realAsGatheredLint.afterStartMs.toFixed(0)} ms after start-up`,
  );
  const allWrong = await measureAllWrong();
  console.log(
    `   ${Math.round(allWrong.bytes / 1024)} KB of all-wrong 26-property objects (${allWrong.objects} objects, first issue ${allWrong.keyword}): ` +
      `${formatSpreadOf(allWrong.ms, (v) => v.toFixed(0))} ms a call`,
  );
  console.log('\n   Capacity: 4,096 tools through one engine with the default caps, each corpus in a child with --expose-gc\n');
  const [realDistinct, realShared, generatedCapacity] = measureCapacity(['real distinct', 'real shared', 'generated']);
  console.log(
    indent(capacityLines([realDistinct, realShared, generatedCapacity].filter((r) => r !== undefined)).map((line) => `   ${line}`)),
  );
  sides.real = { ...sides.real, capacity: realDistinct };
  sides.generated = { ...sides.generated, capacity: generatedCapacity };
  console.log('\n   Bytes\n');
  const bytes = await measureBytes();
  console.log(indent(bytesLines(bytes).map((line) => `   ${line}`)));
  console.log(`\n   section 12 took ${((performance.now() - sections12Started) / 1000).toFixed(1)} s; load average ${loadAverage()}`);
  issue21 = { ...sides, realShared, realAsGatheredLint, allWrong, bytes };
}

if (runValidation) {
  console.log(
    `\nSummary (acceptance: schemaval compileSchema().validate within ${target.toFixed(2)}x of raw cfworker on valid arguments)\n`,
  );
  console.log(indent(summaryLines(validation, target)));
}
if (invalid !== undefined) {
  console.log(`\nInvalid instances (acceptance: at most ${invalidTarget}x of cfworker's full-output mode)\n`);
  console.log(indent(invalidSummaryLines(invalid)));
}
if (isolation !== undefined) {
  console.log(
    `\nIsolation (acceptance: sequential worker round trip within ${isolationTargets.sequential.toFixed(2)}x of the floor's plus ` +
      `in-thread validation; pipelined small at least ${Math.round(isolationTargets.pipelined * 100)}% of the floor's throughput)\n`,
  );
  console.log(indent(isolationSummaryLines(isolation, isolationTargets)));
}
if (host !== undefined) {
  console.log('\nHost adapter (withSchemaValidation callTool over InMemoryTransport, per call)\n');
  console.log(`  inline validator: ${(host.inline.medianNs / host.plain.medianNs).toFixed(2)}x of a plain call`);
  console.log(`  worker validator: ${(host.worker.medianNs / host.plain.medianNs).toFixed(2)}x of a plain call`);
}
if (gateway !== undefined) {
  console.log(
    `\nGateway (acceptance: tools/call through /mcp within ${latencyTargets.p50}x of direct at p50, ${latencyTargets.p99}x at p99)\n`,
  );
  console.log(gatewayLatencySummary(gateway).join('\n'));
}
if (edgeValidate !== undefined) {
  console.log(
    `\nEdge /v1/validate (acceptance: p50 within ${edgeValidateTarget}x of a trivial Worker in the same setting; min/median/max of rounds)\n`,
  );
  console.log(edgeValidateSummary(edgeValidate).join('\n'));
}
if (cliStart !== undefined) {
  console.log(`\nCLI start (acceptance: schemaval --version within ${cliStartTarget}x of node -e 0)\n`);
  console.log(`  ${cliStartSummary(cliStart)}`);
}
if (forTargets || runCorpus) {
  console.log(`\nIssue #12 targets (load average at the end: ${loadAverage()})\n`);
  console.log(indent(targetLines({ validation, compile: compileResults, corpusCompile, corpusLint, isolation, host })));
}
if (issue21 !== undefined) {
  console.log(
    `\nIssue 21 targets, real and generated corpora (min/median/max where runs repeat; PASS/MISS on the median; ` +
      `load average at the end: ${loadAverage()})\n`,
  );
  console.log(indent(issue21Lines({ ...issue21, host, edgeValidate })));
  console.log(
    '\n  real = test/fixtures/real-world/servers (capacity and lint: the real list copied to 4,096 / 1,728 tools with distinct schemas;\n' +
      '  large schema: the real-sized 84 KB one); generated = bench/corpus.ts (large schema: its 230 KiB giant). Edge: section 6b,\n' +
      '  the small body in workerd (the deploy bundle via Miniflare); wrangler dev only when section 6 ran (--only gateway or all).',
  );
}
console.log(`\nTotal run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
