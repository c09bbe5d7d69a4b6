// A real server nobody here wrote: @modelcontextprotocol/server-everything over stdio, behind withSchemaValidation.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type JSONRPCMessage, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { createValidator, type SchemaValidationWarning, type Validator, withSchemaValidation } from '../../src/host/node.ts';

const serverEntry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('server-everything over stdio', () => {
  let client: Client;
  let validator: Validator;
  const sent: JSONRPCMessage[] = [];
  const warnings: SchemaValidationWarning[] = [];
  let answer: () => Record<string, unknown> = () => ({ action: 'cancel' });

  before(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [serverEntry, 'stdio'], stderr: 'ignore' });
    // Record every message that leaves for the server, to prove what was never sent.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      sent.push(message);
      return send(message);
    };
    validator = createValidator();
    client = withSchemaValidation(new Client({ name: 'test-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } }), {
      validator,
      onWarning: (warning) => warnings.push(warning),
    });
    client.setRequestHandler(ElicitRequestSchema, () => answer() as never);
    await client.connect(transport);
  });

  after(async () => {
    await client.close();
    await validator.close();
  });

  const toolCalls = () => sent.filter((m) => 'method' in m && m.method === 'tools/call');

  it('lists its tools, each compiled and accepted', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ['echo', 'get-structured-content', 'trigger-elicitation-request', 'get-sum']) assert.ok(names.includes(name), name);
    assert.deepEqual(warnings, []);
    assert.ok((await validator.stats()).cachedTools >= tools.length);
  });

  it('never sends a call with invalid arguments', async () => {
    const before = toolCalls().length;
    const error = await client.callTool({ name: 'echo', arguments: { message: 42 } }).then(
      () => assert.fail('expected -32602'),
      (e: McpError) => e,
    );
    assert.equal(error.code, -32602);
    assert.match(error.message, /Invalid arguments for tool "echo": \$\.message: got integer, want string/);
    assert.equal(toolCalls().length, before);
  });

  it('sends a valid call and checks its structuredContent against the outputSchema', async () => {
    const before = toolCalls().length;
    const result = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
    assert.equal(toolCalls().length, before + 1);
    assert.equal(typeof (result.structuredContent as { temperature?: unknown }).temperature, 'number');
    assert.deepEqual(
      warnings.filter((w) => w.tool === 'get-structured-content'),
      [],
    );
    const bad = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Paris' } }).then(
      () => assert.fail('expected -32602'),
      (e: McpError) => e,
    );
    assert.match(bad.message, /\$\.location: got "Paris", want one of "New York", "Chicago", "Los Angeles"/);
  });

  it('completes an accepted elicitation with the form defaults before relaying it', async () => {
    answer = () => ({ action: 'accept', content: { name: 'Ada', check: true, email: 'ada@example.com' } });
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    assert.match(text, /"firstLine": "It was a dark and stormy night\."/);
    assert.match(text, /"integer": 42/);
  });

  it('refuses an elicitation answer that breaks the form, so the server never receives it', async () => {
    answer = () => ({ action: 'accept', content: { name: 'Ada', email: 'not an email', integer: 500 } });
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const text = JSON.stringify(result);
    assert.match(text, /\$\.email: \\"not an email\\" is not a valid email/);
    assert.match(text, /\$\.integer: got 500, want at most 100/);
    const responses = sent.filter((m) => 'result' in m && JSON.stringify(m.result).includes('not an email'));
    assert.deepEqual(responses, [], 'the invalid answer was not relayed');
  });
});
