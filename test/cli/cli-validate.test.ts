import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const schema = JSON.stringify({
  type: 'object',
  required: ['path'],
  properties: { path: { type: 'string' }, count: { type: 'integer', maximum: 10 } },
  additionalProperties: false,
});

describe('schemaval validate', () => {
  it('exits 0 and prints "valid" for a valid instance', async () => {
    const io = memoryIo({ 's.json': schema, 'i.json': '{"path":"a","count":3}' });
    assert.equal(await main(['validate', '--schema', 's.json', '--instance', 'i.json'], io), 0);
    assert.equal(io.out(), 'valid\n');
  });

  it('exits 1 with one path-qualified line per issue', async () => {
    const io = memoryIo({ 's.json': schema, '-': '{"count":"x","extra":true}' });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 1);
    assert.deepEqual(io.out().trimEnd().split('\n'), [
      '$: missing required property "path"',
      '$.count: got string, want integer',
      '$.extra: property not allowed',
    ]);
  });

  it('reads the instance from standard input by default and keeps big integers exact', async () => {
    const io = memoryIo({ 's.json': '{"maximum": 9007199254740992}', '-': '9007199254740993' });
    assert.equal(await main(['validate', '--json', '--schema', 's.json'], io), 1);
    assert.deepEqual(JSON.parse(io.out()), {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'maximum', message: 'got 9007199254740993, want at most 9007199254740992' }],
    });
  });

  it('prints {"status":"valid"} with --json', async () => {
    const io = memoryIo({ 's.json': schema, '-': '{"path":"p"}' });
    assert.equal(await main(['validate', '--json', '--schema', 's.json'], io), 0);
    assert.equal(io.out(), '{"status":"valid"}\n');
  });

  it('exits 2 with the refusal code when the schema is refused', async () => {
    const io = memoryIo({ 's.json': '{"$ref":"https://example.com/s.json"}', '-': '{}' });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 2);
    assert.match(io.err(), /^schema refused \(remote_ref\): #\/\$ref: "https:\/\/example.com\/s.json" points outside/);
    const json = memoryIo({ 's.json': '{"$ref":"https://example.com/s.json"}', '-': '{}' });
    assert.equal(await main(['validate', '--json', '--schema', 's.json'], json), 2);
    assert.equal(JSON.parse(json.out()).refusal.code, 'remote_ref');
  });

  it('refuses a schema file over the size bound as too_large, without parsing it', async () => {
    const big = JSON.stringify({ enum: Array.from({ length: 30_000 }, (_, i) => `value-${i}`) });
    const io = memoryIo({ 's.json': big, '-': '"x"' });
    assert.equal(await main(['validate', '--json', '--schema', 's.json'], io), 2);
    assert.equal(JSON.parse(io.out()).refusal.code, 'too_large');
  });

  it('exits 2 naming the file when the schema is missing or malformed', async () => {
    const missing = memoryIo({});
    assert.equal(await main(['validate', '--schema', 'nope.json'], missing), 2);
    assert.equal(missing.err(), 'schemaval: cannot read "nope.json": no such file\n');
    const malformed = memoryIo({ 's.json': '{"type": ' });
    assert.equal(await main(['validate', '--schema', 's.json'], malformed), 2);
    assert.equal(malformed.err(), "schemaval: s.json:1:10: not valid JSON: object value expected after ':'\n");
  });

  it('exits 2 for a malformed instance instead of calling it invalid', async () => {
    const io = memoryIo({ 's.json': schema, '-': '{"path": tru' });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 2);
    assert.match(io.err(), /^schemaval: <stdin>:1:10: not valid JSON: /);
  });

  it('exits 2 for an instance with a repeated key, even with an equal value', async () => {
    const io = memoryIo({ 's.json': schema, '-': '{"path": "a", "path": "a"}' });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 2);
    assert.equal(io.err(), 'schemaval: <stdin>:1:15: not valid JSON: duplicate object key "path"\n');
  });

  it('reports an instance over the size bound as invalid at $', async () => {
    const io = memoryIo({ 's.json': '{"type":"string"}', '-': JSON.stringify('x'.repeat(1_100_000)) });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 1);
    assert.match(io.out(), /^\$: over 1048576 bytes/);
  });

  it('prints schema warnings on standard error and still validates', async () => {
    const io = memoryIo({ 's.json': '{"properties":{"id":{"type":"string","required":true}}}', '-': '{}' });
    assert.equal(await main(['validate', '--schema', 's.json'], io), 0);
    assert.match(io.err(), /^warning draft3_required: #\/properties\/id/);
  });

  it('exits 2 for missing --schema and stray arguments', async () => {
    for (const argv of [['validate'], ['validate', '--schema', 's.json', 'extra']]) {
      const io = memoryIo({ 's.json': schema });
      assert.equal(await main(argv, io), 2, argv.join(' '));
      assert.match(io.err(), /usage:/);
    }
  });
});

describe('schemaval (no command)', () => {
  it('prints usage and exits 0 for --help, 2 for an unknown command', async () => {
    const help = memoryIo({});
    assert.equal(await main(['--help'], help), 0);
    assert.match(help.out(), /schemaval lint \[--json\] FILE\|-/);
    const unknown = memoryIo({});
    assert.equal(await main(['frobnicate'], unknown), 2);
    assert.match(unknown.err(), /unknown command "frobnicate"/);
  });
});
