// compileTools verdicts (docs/architecture.md#cli) and argument / structuredContent checks by tool fingerprint.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, toolFingerprint } from '../../../src/engine/index.ts';
import { toolListRefusals } from '../../../src/engine/tools/compile-tool.ts';
import type { ToolVerdict } from '../../../src/protocol/index.ts';

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', maximum: 10 } }, required: ['city'] },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};
const remoteOutput = { name: 'remote_out', inputSchema: { type: 'object' }, outputSchema: { $ref: 'https://example.com/out.json' } };
const remoteInput = { name: 'remote_in', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } };

async function verdictsOf(tools: unknown[]): Promise<ToolVerdict[]> {
  return createEngine().compileTools(tools);
}

describe('compileTools verdicts', () => {
  it('accepts a tool whose schemas are admitted, with the lint --json shape (docs/architecture.md#cli)', async () => {
    const [verdict] = await verdictsOf([weather]);
    assert.deepEqual(verdict, {
      name: 'get_weather',
      fingerprint: await toolFingerprint(weather),
      status: 'accepted',
      input: { status: 'accepted' },
      output: { status: 'accepted' },
      warnings: [],
    });
  });

  it('gives null for a schema the tool does not have', async () => {
    const [verdict] = await verdictsOf([{ name: 'ping', inputSchema: { type: 'object' } }]);
    assert.equal(verdict?.output, null);
    assert.deepEqual(verdict?.input, { status: 'accepted' });
  });

  it('refuses a tool whose outputSchema is refused, and says which schema', async () => {
    const [verdict] = await verdictsOf([remoteOutput]);
    assert.equal(verdict?.status, 'refused');
    assert.deepEqual(verdict?.input, { status: 'accepted' });
    assert.equal(verdict?.output?.status, 'refused');
    assert.equal(verdict?.output?.status === 'refused' && verdict.output.refusal.code, 'remote_ref');
    assert.ok(verdict?.output?.status === 'refused' && verdict.output.refusal.message.startsWith('outputSchema: '));
  });

  it('refuses a tool whose inputSchema is refused, naming the location', async () => {
    const [verdict] = await verdictsOf([remoteInput]);
    assert.equal(verdict?.status, 'refused');
    assert.ok(verdict?.input?.status === 'refused');
    assert.equal(verdict.input.refusal.code, 'remote_ref');
    assert.ok(verdict.input.refusal.message.includes('#/properties/a/$ref'), verdict.input.refusal.message);
    assert.ok(verdict.input.refusal.message.startsWith('inputSchema: '));
  });

  it('gives a verdict per tool, in order', async () => {
    const verdicts = await verdictsOf([weather, remoteOutput, remoteInput]);
    assert.deepEqual(
      verdicts.map((v) => [v.name, v.status]),
      [
        ['get_weather', 'accepted'],
        ['remote_out', 'refused'],
        ['remote_in', 'refused'],
      ],
    );
  });

  it('refuses invalid_tool an input schema whose root is not type object, naming what it has', async () => {
    const [verdict] = await verdictsOf([{ name: 'echo', inputSchema: { type: 'string' } }]);
    assert.equal(verdict?.status, 'refused');
    assert.deepEqual(verdict?.input, {
      status: 'refused',
      refusal: {
        code: 'invalid_tool',
        message: 'tool "echo": "inputSchema" has "type": "string" at its root; MCP requires "type": "object"',
      },
    });
    assert.deepEqual(verdict?.warnings, []);
  });

  it('refuses a root that reaches an object only through $ref, or lists "object" in an array (the spec wants the literal)', async () => {
    const inputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $ref: '#/definitions/Args',
      definitions: { Args: { type: 'object', properties: { q: { type: 'string' } } } },
    };
    const verdicts = await verdictsOf([
      { name: 'search', inputSchema },
      { name: 'listed', inputSchema: { type: ['object'] } },
    ]);
    assert.deepEqual(
      verdicts.map((v) => v.input?.status === 'refused' && v.input.refusal.message),
      [
        'tool "search": "inputSchema" has no "type" at its root; MCP requires "type": "object"',
        'tool "listed": "inputSchema" has "type": ["object"] at its root; MCP requires "type": "object"',
      ],
    );
  });

  it('refuses invalid_tool a tool without an inputSchema, or with one that is not an object', async () => {
    const verdicts = await verdictsOf([
      { name: 'bare' },
      { name: 'nul', inputSchema: null },
      { name: 'yes', inputSchema: true },
      { name: 'arr', inputSchema: [] },
      { name: 'str', inputSchema: 'object' },
    ]);
    assert.deepEqual(
      verdicts.map((v) => [
        v.status,
        v.input?.status === 'refused' && v.input.refusal.code,
        v.input?.status === 'refused' && v.input.refusal.message,
      ]),
      [
        ['refused', 'invalid_tool', 'tool "bare" has no "inputSchema": MCP requires one, with "type": "object" at its root'],
        ['refused', 'invalid_tool', 'tool "nul": "inputSchema" is null, not a JSON Schema object with "type": "object"'],
        ['refused', 'invalid_tool', 'tool "yes": "inputSchema" is the boolean true, not a JSON Schema object with "type": "object"'],
        ['refused', 'invalid_tool', 'tool "arr": "inputSchema" is an array, not a JSON Schema object with "type": "object"'],
        ['refused', 'invalid_tool', 'tool "str": "inputSchema" is a string, not a JSON Schema object with "type": "object"'],
      ],
    );
    assert.ok(verdicts.every((v) => v.warnings.length === 0));
  });

  it('keeps the fingerprint of a malformed definition that has one, and caches no compile for it', async () => {
    const engine = createEngine();
    const tool = { name: 'echo', inputSchema: { type: 'string' } };
    const [verdict] = await engine.compileTools([tool]);
    assert.equal(verdict?.fingerprint, await toolFingerprint(tool));
    assert.equal(engine.stats().compiles, 0);
    assert.throws(() => engine.validateArguments(verdict?.fingerprint ?? '', 'x'), { code: 'UNKNOWN_FINGERPRINT' });
  });

  it('refuses an outputSchema that is not an object; its root type is checked only for revisions before 2026-07-28', async () => {
    const arrayOut = { name: 'rows', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } };
    const verdicts = await verdictsOf([{ name: 'nul_out', inputSchema: { type: 'object' }, outputSchema: null }, arrayOut]);
    assert.deepEqual(
      verdicts.map((v) => [v.status, v.input?.status === 'refused' ? v.input.refusal.message : 'ok']),
      [
        ['refused', 'tool "nul_out": "outputSchema" is null, not a JSON Schema object'],
        ['accepted', 'ok'],
      ],
    );
    assert.equal(toolListRefusals([arrayOut], new Map(), '2026-07-28')[0], undefined);
    const [old] = toolListRefusals([arrayOut], new Map(), '2025-11-25');
    assert.deepEqual(old?.input, {
      status: 'refused',
      refusal: {
        code: 'invalid_tool',
        message: 'tool "rows": "outputSchema" has "type": "array" at its root; MCP 2025-11-25 requires "type": "object"',
      },
    });
  });

  it('leaves the good tools of a list with malformed ones accepted', async () => {
    const verdicts = await verdictsOf([{ name: 'bad' }, weather, { name: 'worse', inputSchema: { type: 'string' } }]);
    assert.deepEqual(
      verdicts.map((v) => [v.name, v.status]),
      [
        ['bad', 'refused'],
        ['get_weather', 'accepted'],
        ['worse', 'refused'],
      ],
    );
  });

  it('prefixes schema warnings with the schema they come from', async () => {
    const tool = {
      name: 'legacy',
      inputSchema: { type: 'object', properties: { a: { type: 'string', required: true } } },
      outputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', const: {} },
    };
    const [verdict] = await verdictsOf([tool]);
    assert.equal(verdict?.status, 'accepted');
    const byCode = new Map(verdict?.warnings.map((w) => [w.code, w.message]));
    assert.ok(byCode.get('draft3_required')?.startsWith('inputSchema: '));
    assert.ok(byCode.get('ignored_keyword')?.startsWith('outputSchema: '));
  });

  it('refuses an entry that is not a tool, naming its index', async () => {
    const [verdict] = await verdictsOf([42]);
    assert.equal(verdict?.name, 'tools[0]');
    assert.equal(verdict?.status, 'refused');
    assert.equal(verdict?.input?.status === 'refused' && verdict.input.refusal.code, 'invalid_tool');
  });

  it('throws INVALID_ARGUMENT when the tool list is not an array', () => {
    assert.throws(
      () => createEngine().compileTools({ tools: [] } as unknown as unknown[]),
      (error: unknown) => (error as { code?: unknown }).code === 'INVALID_ARGUMENT',
    );
  });

  it('compiles a schema shared by two tools once', async () => {
    const engine = createEngine();
    await engine.compileTools([
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object' } },
    ]);
    assert.equal(engine.stats().compiles, 1);
    assert.equal(engine.stats().cachedTools, 2);
  });
});

describe('validateArguments and validateStructured', () => {
  it('validates arguments by tool fingerprint', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([weather]);
    const print = verdict?.fingerprint ?? '';
    assert.deepEqual(engine.validateArguments(print, { city: 'Oslo', days: 3 }), { status: 'valid' });
    assert.deepEqual(engine.validateArguments(print, { days: 12 }), {
      status: 'invalid',
      issues: [
        { path: '$', keyword: 'required', message: 'missing required property "city"' },
        { path: '$.days', keyword: 'maximum', message: 'got 12, want at most 10' },
      ],
    });
  });

  it('validates structuredContent by tool fingerprint', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([weather]);
    const print = verdict?.fingerprint ?? '';
    assert.deepEqual(engine.validateStructured(print, { celsius: 21.5 }), { status: 'valid' });
    assert.deepEqual(engine.validateStructured(print, { celsius: 'warm' }), {
      status: 'invalid',
      issues: [{ path: '$.celsius', keyword: 'type', message: 'got string, want number' }],
    });
  });

  it('answers with the refusal for a refused output schema', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([remoteOutput]);
    const outcome = engine.validateStructured(verdict?.fingerprint ?? '', {});
    assert.ok(outcome.status === 'refused');
    assert.equal(outcome.refusal.code, 'remote_ref');
  });

  it('accepts any structuredContent for a tool without an outputSchema', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([{ name: 'ping', inputSchema: { type: 'object' } }]);
    assert.deepEqual(engine.validateStructured(verdict?.fingerprint ?? '', 'anything'), { status: 'valid' });
  });

  it('throws UNKNOWN_FINGERPRINT for a tool never compiled', () => {
    const engine = createEngine();
    assert.throws(
      () => engine.validateArguments('0'.repeat(64), {}),
      (error: unknown) => (error as { code?: unknown }).code === 'UNKNOWN_FINGERPRINT',
    );
    assert.throws(
      () => engine.validateStructured('0'.repeat(64), {}),
      (error: unknown) => (error as { code?: unknown }).code === 'UNKNOWN_FINGERPRINT',
    );
  });

  it('does not confuse a schema fingerprint with a tool fingerprint', async () => {
    const engine = createEngine();
    const { fingerprint: schemaPrint } = await engine.compile(weather.inputSchema);
    assert.throws(
      () => engine.validateArguments(schemaPrint, {}),
      (error: unknown) => (error as { code?: unknown }).code === 'UNKNOWN_FINGERPRINT',
    );
  });

  it('keeps a changed tool definition under a new fingerprint', async () => {
    const engine = createEngine();
    const [v1] = await engine.compileTools([weather]);
    const changed = { ...weather, inputSchema: { type: 'object', properties: { city: { type: 'integer' } } } };
    const [v2] = await engine.compileTools([changed]);
    assert.notEqual(v1?.fingerprint, v2?.fingerprint);
    assert.deepEqual(engine.validateArguments(v1?.fingerprint ?? '', { city: 'Oslo' }), { status: 'valid' });
    assert.deepEqual(engine.validateArguments(v2?.fingerprint ?? '', { city: 'Oslo' }), {
      status: 'invalid',
      issues: [{ path: '$.city', keyword: 'type', message: 'got string, want integer' }],
    });
  });

  it('counts validations in stats', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([weather]);
    engine.validateArguments(verdict?.fingerprint ?? '', {});
    engine.validateStructured(verdict?.fingerprint ?? '', {});
    assert.equal(engine.stats().validations, 2);
  });
});

describe('checks on a refused tool', () => {
  it('answers both argument and result checks with the refusal, whichever schema was refused', async () => {
    const engine = createEngine();
    const [inputRefused, outputRefused] = await engine.compileTools([
      { name: 'a', inputSchema: { type: 'object', $ref: 'https://example.com/a.json' }, outputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object' }, outputSchema: { pattern: '(' } },
    ]);
    const structured = engine.validateStructured(inputRefused?.fingerprint ?? '', {});
    assert.equal(structured.status === 'refused' && structured.refusal.code, 'remote_ref');
    const args = engine.validateArguments(outputRefused?.fingerprint ?? '', {});
    assert.equal(args.status === 'refused' && args.refusal.code, 'invalid_pattern');
  });
});
