import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { lintBatch } from '../../src/cli/lint-command.ts';
import { main } from '../../src/cli/main.ts';
import { createValidator, type SpawnWorker, spawnNodeWorker } from '../../src/host/node.ts';
import { memoryIo } from '../helpers/memory-io.ts';

/** Counts the messages the host posts on the data lane of every worker `spawn` starts. */
function countingPosted(spawn: SpawnWorker, counts: { posted: number }): SpawnWorker {
  return () => {
    const handle = spawn();
    return {
      ...handle,
      lane: (onMessage) => {
        const { port, remote } = handle.lane(onMessage);
        const counted = {
          postMessage: (message: unknown) => {
            counts.posted++;
            port.postMessage(message);
          },
          close: () => port.close(),
        };
        return { port: counted, remote };
      },
    };
  };
}

const example = readFileSync(new URL('../../examples/tools.json', import.meta.url), 'utf8');

describe('schemaval lint', () => {
  it('prints each verdict and the summary line, exiting 1 when a tool is refused', async () => {
    const io = memoryIo({ 'tools.json': example });
    assert.equal(await main(['lint', 'tools.json'], io), 1);
    const out = io.out();
    assert.match(out, /^accepted {2}get_weather$/m);
    assert.match(out, /^refused {3}fetch_profile\n {10}remote_ref: inputSchema: #\/properties\/profile\/\$ref/m);
    assert.match(out, /^refused {3}expand_everything\n {10}too_many_subschemas: /m);
    assert.match(out, /warning draft3_required: inputSchema: #\/properties\/id/);
    assert.match(out, /^refused {3}search_issues\n {10}invalid_tool: tool "search_issues": "inputSchema" has no "type" at its root/m);
    assert.match(out, /^6 tools: 3 accepted, 3 refused, 1 warning$/m);
  });

  it('emits the lint --json document of docs/architecture.md#cli', async () => {
    const io = memoryIo({ 'tools.json': example });
    assert.equal(await main(['lint', '--json', 'tools.json'], io), 1);
    const { tools } = JSON.parse(io.out()) as { tools: Record<string, unknown>[] };
    assert.equal(tools.length, 6);
    for (const tool of tools) {
      assert.deepEqual(Object.keys(tool).sort(), ['fingerprint', 'input', 'name', 'output', 'status', 'warnings']);
      assert.match(String(tool.fingerprint), /^[0-9a-f]{64}$/);
    }
    const weather = tools.find((t) => t.name === 'get_weather');
    assert.deepEqual(weather, {
      ...weather,
      status: 'accepted',
      input: { status: 'accepted' },
      output: { status: 'accepted' },
      warnings: [],
    });
    const search = tools.find((t) => t.name === 'search_issues');
    assert.equal(search?.output, null, 'a tool without outputSchema has output: null');
    const remote = tools.find((t) => t.name === 'fetch_profile');
    assert.equal(remote?.status, 'refused');
    assert.equal((remote?.input as { refusal: { code: string } } | undefined)?.refusal.code, 'remote_ref');
  });

  it('exits 0 when every tool is accepted, and accepts a bare array or a JSON-RPC response', async () => {
    const tool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };
    for (const text of [JSON.stringify([tool]), JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [tool] } })]) {
      const io = memoryIo({ '-': text });
      assert.equal(await main(['lint', '-'], io), 0);
      assert.match(io.out(), /^1 tool: 1 accepted, 0 refused$/m);
    }
  });

  it('refuses a too-deep schema per tool instead of failing the whole file', async () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    const io = memoryIo({
      '-': JSON.stringify({
        tools: [
          { name: 'deep', inputSchema: deep },
          { name: 'ok', inputSchema: { type: 'object' } },
        ],
      }),
    });
    assert.equal(await main(['lint', '--json', '-'], io), 1);
    const { tools } = JSON.parse(io.out());
    assert.equal(tools[0].input.refusal.code, 'too_deep');
    assert.equal(tools[1].status, 'accepted');
  });

  it('refuses an entry that is not a tool, naming its index', async () => {
    const io = memoryIo({ '-': '{"tools":[42]}' });
    assert.equal(await main(['lint', '--json', '-'], io), 1);
    const { tools } = JSON.parse(io.out());
    assert.equal(tools[0].name, 'tools[0]');
    assert.equal(tools[0].input.refusal.code, 'invalid_tool');
  });

  it('refuses a tool whose name has a lone surrogate (invalid_tool, no fingerprint), and exits 1', async () => {
    const io = memoryIo({
      '-': '{"tools":[{"name":"bad\\udc00","inputSchema":{"type":"object"}},{"name":"ok","inputSchema":{"type":"object"}}]}',
    });
    assert.equal(await main(['lint', '--json', '-'], io), 1);
    const { tools } = JSON.parse(io.out());
    assert.deepEqual(tools[0], {
      name: 'bad\udc00',
      fingerprint: '',
      status: 'refused',
      input: {
        status: 'refused',
        refusal: { code: 'invalid_tool', message: 'tool name "bad\\udc00" holds a lone UTF-16 surrogate: not well-formed Unicode' },
      },
      output: null,
      warnings: [],
    });
    assert.equal(tools[1].status, 'accepted');
  });

  it('refuses every definition of a duplicated name, also when the copies fall in different batches', async () => {
    const tools = Array.from({ length: lintBatch + 2 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object' } }));
    tools[lintBatch + 1] = { name: 'tool_0', inputSchema: { type: 'object' } };
    const io = memoryIo({ '-': JSON.stringify({ tools }) });
    assert.equal(await main(['lint', '-'], io), 1);
    const refusal = '          invalid_tool: tool name "tool_0" appears 2 times in this list: every definition of it is refused\n';
    assert.equal(io.out().split(`refused   tool_0\n${refusal}`).length, 3, io.out().slice(0, 400));
    assert.match(io.out(), /^258 tools: 256 accepted, 2 refused$/m);
  });

  it('sends a 1,728-tool file to the worker in one message per 256 tools, and prints the verdicts in file order', async () => {
    const tools = Array.from({ length: 1728 }, (_, i) => ({
      name: `tool_${i}`,
      inputSchema: { type: 'object', properties: { [`field_${i}`]: { type: 'string', maxLength: i + 1 } }, required: [`field_${i}`] },
    }));
    const counts = { posted: 0 };
    const io = memoryIo({ '-': JSON.stringify({ tools }) });
    const code = await main(['lint', '-'], io, {
      createValidator: (options) => createValidator({ ...options, spawn: countingPosted(spawnNodeWorker(), counts) }),
    });
    assert.equal(code, 0, io.err());
    assert.ok(counts.posted >= 1, 'the lint went through the worker');
    assert.ok(counts.posted <= Math.ceil(1728 / lintBatch), `${counts.posted} messages for 1,728 tools`);
    const names = [...io.out().matchAll(/^accepted {2}(\S+)$/gm)].map((match) => match[1]);
    assert.deepEqual(
      names,
      tools.map((tool) => tool.name),
    );
    assert.match(io.out(), /^1728 tools: 1728 accepted, 0 refused$/m);
  });

  it('starts the worker while the tools file is still being read', async () => {
    const spawned: number[] = [];
    let readsDone = 0;
    let spawnedBeforeReadEnded: boolean | undefined;
    const files = memoryIo({ 'tools.json': example });
    const io = {
      ...files,
      readText: async (file: string) => {
        // A slow disk: the read ends only after the next timer turn, long after any scheduled flush.
        await new Promise((resolve) => setTimeout(resolve, 50));
        spawnedBeforeReadEnded = spawned.length > 0;
        readsDone++;
        return files.readText(file);
      },
    };
    const spawn = spawnNodeWorker({ onSpawn: () => spawned.push(readsDone) });
    const code = await main(['lint', 'tools.json'], io, { createValidator: (options) => createValidator({ ...options, spawn }) });
    assert.equal(code, 1, io.err());
    assert.equal(spawnedBeforeReadEnded, true, 'the worker was spawned before the file was read');
    assert.deepEqual(spawned, [0], 'one worker, spawned before any read finished');
    assert.match(files.out(), /^6 tools: 3 accepted, 3 refused, 1 warning$/m);
  });

  it('closes the early worker when the tools file cannot be read', async () => {
    const spawned: unknown[] = [];
    const exited: number[] = [];
    const spawn = spawnNodeWorker({
      onSpawn: (worker) => {
        spawned.push(worker);
        worker.on('exit', (code) => exited.push(code));
      },
    });
    const io = memoryIo({});
    const code = await main(['lint', 'missing.json'], io, { createValidator: (options) => createValidator({ ...options, spawn }) });
    assert.equal(code, 2);
    assert.match(io.err(), /no such file/);
    assert.equal(spawned.length, 1, 'the worker had started');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(exited.length, 1, 'and it was terminated');
  });

  it('exits 2 for unreadable, unparseable or wrongly shaped input', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['lint', 'missing.json'], {}, /^schemaval: cannot read "missing.json": no such file\n$/],
      [['lint', '-'], { '-': '{"tools": [' }, /^schemaval: <stdin>:1:12: not valid JSON: array item or end of array/],
      [['lint', '-'], { '-': '{"tool": []}' }, /must hold a tools\/list result/],
      [['lint'], {}, /exactly one FILE/],
    ];
    for (const [argv, files, pattern] of cases) {
      const io = memoryIo(files);
      assert.equal(await main(argv, io), 2, argv.join(' '));
      assert.match(io.err(), pattern);
    }
  });
});
