// withSchemaValidation on a real SDK Client talking to a real SDK Server over the in-memory transport.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ElicitRequestSchema, type McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator, type SchemaValidationWarning, withSchemaValidation } from '../../src/host/node.ts';
import { timeoutsInARow } from '../../src/host/too-slow.ts';
import { type ElicitationFailure, type Fixture, startFixture } from '../helpers/mcp-fixture.ts';
import { manyRows, roomyPolicy, rowsTool } from '../helpers/slow-work.ts';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function setUp(options: Parameters<typeof withSchemaValidation>[1] = {}, list?: Parameters<typeof startFixture>[0]) {
  fixture = await startFixture(list);
  const warnings: SchemaValidationWarning[] = [];
  const validator = options.validator ?? createValidator({ mode: 'inline' });
  const client = withSchemaValidation(fixture.client, { ...options, validator, onWarning: (w) => warnings.push(w) });
  return { client, warnings, seen: fixture.seen, validator };
}

/** The error the server's elicitation request ended with. */
function failureOf(seen: unknown): ElicitationFailure['error'] {
  assert.ok(typeof seen === 'object' && seen !== null && 'error' in seen, `expected a failed elicitation, got ${JSON.stringify(seen)}`);
  return (seen as ElicitationFailure).error;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  assert.fail('expected the call to be rejected');
}

describe('listTools', () => {
  it('leaves out a tool with a remote $ref and warns with its code', async () => {
    const { client, warnings } = await setUp();
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo', 'weather', 'ask'],
    );
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.tool, 'remote');
    assert.equal(warnings[0]?.code, 'remote_ref');
    assert.match(warnings[0]?.message ?? '', /#\/properties\/profile\/\$ref/);
  });

  it('keeps pagination: each page filtered, nextCursor preserved', async () => {
    const { client } = await setUp({}, { pageSize: 2 });
    const first = await client.listTools();
    assert.deepEqual(
      first.tools.map((t) => t.name),
      ['echo'],
    );
    assert.equal(first.nextCursor, '2');
    const second = await client.listTools({ cursor: first.nextCursor });
    assert.deepEqual(
      second.tools.map((t) => t.name),
      ['weather', 'ask'],
    );
    assert.equal(second.nextCursor, undefined);
  });
});

describe('callTool arguments', () => {
  it('rejects invalid arguments with -32602 naming the tool and the paths, and sends nothing', async () => {
    const { client, seen } = await setUp();
    await client.listTools();
    const error = await rejection(client.callTool({ name: 'echo', arguments: { text: 5, times: 0 } }));
    assert.equal(error.code, -32602);
    assert.match(error.message, /Invalid arguments for tool "echo": \$\.text: got integer, want string; \$\.times: got 0, want at least 1/);
    assert.deepEqual((error.data as { issues: unknown[] }).issues, [
      { path: '$.text', keyword: 'type', message: 'got integer, want string' },
      { path: '$.times', keyword: 'minimum', message: 'got 0, want at least 1' },
    ]);
    assert.equal(seen.calls.length, 0);
  });

  it("returns the issues as an isError result with argumentErrors: 'result', and sends nothing", async () => {
    const { client, seen } = await setUp({ argumentErrors: 'result' });
    const result = await client.callTool({ name: 'echo', arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'Invalid arguments for tool "echo":\n$: missing required property "text"' }]);
    assert.equal(seen.calls.length, 0);
  });

  it('sends valid arguments and returns the result', async () => {
    const { client, seen } = await setUp();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    assert.deepEqual(seen.calls, [{ name: 'echo', arguments: { text: 'hi' } }]);
  });

  it('lists tools first when a call names a tool it has not seen (no cold-cache bypass)', async () => {
    const { client, seen } = await setUp({}, { pageSize: 1 });
    const error = await rejection(client.callTool({ name: 'ask', arguments: { form: 7 } }));
    assert.equal(error.code, -32602);
    assert.equal(seen.lists, 4, 'every page was read');
    assert.equal(seen.calls.length, 0);
  });

  it('refuses a call to a refused tool, and to a tool the server never listed, without sending', async () => {
    const { client, seen } = await setUp();
    const refused = await rejection(client.callTool({ name: 'remote', arguments: {} }));
    assert.equal(refused.code, -32602);
    assert.match(refused.message, /Tool "remote" is refused by schema policy \(remote_ref: /);
    assert.equal((refused.data as { code: string }).code, 'remote_ref');
    const unknown = await rejection(client.callTool({ name: 'nope', arguments: {} }));
    assert.equal(unknown.code, -32602);
    assert.match(unknown.message, /not in the server's tool list/);
    assert.equal(seen.calls.length, 0);
  });

  it('passes arguments through unchecked only when arguments: false', async () => {
    const { client, seen } = await setUp({ arguments: false });
    await client.callTool({ name: 'echo', arguments: { text: 5 } });
    assert.equal(seen.calls.length, 1);
  });
});

describe('structuredContent', () => {
  it("'warn' (default) delivers a mismatching result unchanged and warns", async () => {
    const { client, warnings } = await setUp();
    const result = await client.callTool({ name: 'weather', arguments: { reply: 'bad' } });
    assert.deepEqual(result.structuredContent, { temperature: 'hot' });
    assert.equal(warnings.length, 2, 'the refused tool at list time, then the result');
    assert.equal(warnings[1]?.code, 'structured_content_invalid');
    assert.deepEqual(warnings[1]?.issues, [{ path: '$.temperature', keyword: 'type', message: 'got string, want number' }]);
  });

  it("'enforce' rejects a mismatch with -32602, and a missing structuredContent too", async () => {
    const { client } = await setUp({ structuredContent: 'enforce' });
    const bad = await rejection(client.callTool({ name: 'weather', arguments: { reply: 'bad' } }));
    assert.equal(bad.code, -32602);
    assert.match(bad.message, /\$\.temperature: got string, want number/);
    const missing = await rejection(client.callTool({ name: 'weather', arguments: { reply: 'missing' } }));
    assert.equal(missing.code, -32602);
    assert.match(missing.message, /declares an outputSchema but returned no structuredContent/);
    const good = await client.callTool({ name: 'weather', arguments: { reply: 'good' } });
    assert.deepEqual(good.structuredContent, { temperature: 21 });
  });

  it("'off' checks nothing", async () => {
    const { client, warnings } = await setUp({ structuredContent: 'off' });
    const result = await client.callTool({ name: 'weather', arguments: { reply: 'bad' } });
    assert.deepEqual(result.structuredContent, { temperature: 'hot' });
    assert.deepEqual(
      warnings.map((w) => w.code),
      ['remote_ref'],
    );
  });

  it('never checks an isError result', async () => {
    const { client, warnings } = await setUp({ structuredContent: 'enforce' });
    const result = await client.callTool({ name: 'weather', arguments: { reply: 'error' } });
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent, { oops: true });
    assert.deepEqual(
      warnings.map((w) => w.code),
      ['remote_ref'],
    );
  });
});

describe('elicitation', () => {
  async function withAnswer(
    answer: (params: Record<string, unknown>) => Record<string, unknown>,
    form: 'profile' | 'empty-enum' = 'profile',
  ) {
    const context = await setUp();
    context.client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params as Record<string, unknown>) as never);
    await context.client.callTool({ name: 'ask', arguments: { form } });
    return context.seen.elicitations;
  }

  it('fails the server request with -32602 when an answer has a wrong type, and relays nothing', async () => {
    const [seen] = await withAnswer(() => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 'old' } }));
    const failed = failureOf(seen);
    assert.equal(failed.code, -32602);
    assert.match(failed.message, /\$\.age: got string, want integer/);
  });

  it('asserts the form formats (a bad email is refused)', async () => {
    const [seen] = await withAnswer(() => ({ action: 'accept', content: { name: 'Ada', email: 'not-an-email' } }));
    const failed = failureOf(seen);
    assert.match(failed.message, /\$\.email: "not-an-email" is not a valid email/);
  });

  it('fills missing fields with their defaults before validating, and the server receives them', async () => {
    const [seen] = await withAnswer(() => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } }));
    assert.deepEqual(seen, { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', newsletter: true, color: 'green' } });
  });

  it('passes decline and cancel through', async () => {
    assert.deepEqual(await withAnswer(() => ({ action: 'decline' })), [{ action: 'decline' }]);
    assert.deepEqual(await withAnswer(() => ({ action: 'cancel' })), [{ action: 'cancel' }]);
  });

  it('refuses a requestedSchema outside the spec subset before asking the user', async () => {
    let asked = false;
    const [seen] = await withAnswer(() => {
      asked = true;
      return { action: 'accept', content: { color: 'red' } };
    }, 'empty-enum');
    assert.equal(asked, false);
    const failed = failureOf(seen);
    assert.equal(failed.code, -32602);
    assert.match(failed.message, /requestedSchema\.properties\["color"\]: enum must be a non-empty array of strings/);
  });

  it('also guards a handler registered before the wrap', async () => {
    fixture = await startFixture();
    fixture.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: '', email: 'a@b.co' } }));
    const client = withSchemaValidation(fixture.client, { validator: createValidator({ mode: 'inline' }) });
    await client.callTool({ name: 'ask', arguments: { form: 'profile' } });
    const [seen] = fixture.seen.elicitations;
    const failed = failureOf(seen);
    assert.match(failed.message, /\$\.name: got 0 characters, want at least 1/);
  });
});

describe('the default validator', () => {
  it('runs in a worker thread and gives the same answers', async () => {
    const validator = createValidator();
    try {
      const { client, seen } = await setUp({ validator });
      const error = await rejection(client.callTool({ name: 'echo', arguments: { text: [] } }));
      assert.equal(error.code, -32602);
      assert.match(error.message, /\$\.text: got array, want string/);
      assert.equal(seen.calls.length, 0);
      assert.equal(validator.mode, 'worker');
    } finally {
      await validator.close();
    }
  });
});

describe('a call whose check overruns the time budget', () => {
  it('is not sent and fails alone (timeout): the tool stays listed and callable, until it keeps overrunning', async () => {
    // 100 ms for a call: a few rows check in well under a millisecond, 100,000 rows take seconds.
    const validator = createValidator({ timeBudgetMs: 100, policy: roomyPolicy });
    try {
      const { client, seen, warnings } = await setUp({ validator }, { list: [rowsTool as Tool] });
      const names = async (): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);
      const heavy = { name: 'import_rows', arguments: { rows: manyRows() } };
      const few = { name: 'import_rows', arguments: { rows: [{ a: 'x', b: 1 }] } };
      assert.deepEqual(await names(), ['import_rows']);

      const error = await rejection(client.callTool(heavy));
      assert.equal(error.code, -32602);
      assert.equal((error.data as { code: string }).code, 'timeout');
      assert.match(error.message, /arguments could not be checked in time .*; the call was not sent/);
      assert.equal(seen.calls.length, 0);
      assert.deepEqual(await names(), ['import_rows'], 'still listed');
      await client.callTool(few);
      assert.equal(seen.calls.length, 1, 'still callable');
      assert.equal(warnings.length, 0);

      // Three timeouts in a row with no finished check between: the tool is refused and no longer listed.
      for (let i = 0; i < timeoutsInARow; i++) {
        assert.equal(((await rejection(client.callTool(heavy))).data as { code: string }).code, 'timeout');
      }
      const refused = await rejection(client.callTool(few));
      assert.equal((refused.data as { code: string }).code, 'too_slow');
      assert.equal(seen.calls.length, 1);
      assert.deepEqual(await names(), []);
      assert.deepEqual(
        warnings.map((w) => [w.tool, w.code]),
        [['import_rows', 'too_slow']],
      );
    } finally {
      await validator.close();
    }
  });
});
