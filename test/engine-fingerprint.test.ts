// Fingerprints (docs/architecture.md#fingerprints-and-caches): lowercase hex SHA-256 of the RFC 8785 canonical JSON of a schema or a tool.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { fingerprint, toolFingerprint } from '../src/engine/index.ts';
import { lossless } from './fixtures/engine/helpers.ts';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('fingerprint', () => {
  it('is 64 lowercase hex characters', async () => {
    assert.match(await fingerprint({ type: 'object' }), /^[0-9a-f]{64}$/);
  });

  it('is the SHA-256 of the canonical text with sorted keys and no whitespace', async () => {
    assert.equal(await fingerprint({ type: 'object', required: ['b', 'a'] }), sha256('{"required":["b","a"],"type":"object"}'));
  });

  it('matches the RFC 8785 canonical form of numbers, strings and literals', async () => {
    const value = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    const canonical =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    assert.equal(await fingerprint(value), sha256(canonical));
  });

  it('ignores key order', async () => {
    const a = { type: 'object', properties: { x: { type: 'string', minLength: 1 }, y: { type: 'integer' } }, required: ['x'] };
    const b = { required: ['x'], properties: { y: { type: 'integer' }, x: { minLength: 1, type: 'string' } }, type: 'object' };
    assert.equal(await fingerprint(a), await fingerprint(b));
  });

  it('keeps array order significant', async () => {
    assert.notEqual(await fingerprint({ required: ['a', 'b'] }), await fingerprint({ required: ['b', 'a'] }));
  });

  it('changes when a definition changes', async () => {
    const before = { $defs: { id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/id' } } };
    const after = { $defs: { id: { type: 'string' } }, properties: { id: { $ref: '#/$defs/id' } } };
    assert.notEqual(await fingerprint(before), await fingerprint(after));
  });

  it('tells 1 from "1" and true from "true"', async () => {
    assert.notEqual(await fingerprint({ const: 1 }), await fingerprint({ const: '1' }));
    assert.notEqual(await fingerprint({ const: true }), await fingerprint({ const: 'true' }));
  });

  it('distinguishes schemas that differ only in a big integer', async () => {
    const a = await fingerprint(lossless('{"maximum": 9007199254740993}'));
    const b = await fingerprint(lossless('{"maximum": 9007199254740992}'));
    assert.notEqual(a, b);
  });

  it('writes a big integer as its exact digits', async () => {
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740993}')), sha256('{"maximum":9007199254740993}'));
  });

  it('gives a bigint and a LosslessNumber with the same digits the same fingerprint', async () => {
    assert.equal(await fingerprint({ maximum: 9007199254740993n }), await fingerprint(lossless('{"maximum": 9007199254740993}')));
  });

  it('gives a big integer that is exactly a double the fingerprint of that double', async () => {
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740992}')), await fingerprint({ maximum: 9007199254740992 }));
  });

  it('cannot be forged by a string that looks like the internal placeholder', async () => {
    const text = await fingerprint({ maximum: 'svdeadbeefn9007199254740993' });
    assert.notEqual(text, sha256('{"maximum":9007199254740993}'));
  });

  it('is the same for a boolean schema every time and differs between true and false', async () => {
    assert.equal(await fingerprint(true), sha256('true'));
    assert.notEqual(await fingerprint(true), await fingerprint(false));
  });
});

describe('toolFingerprint', () => {
  it('fingerprints { name, inputSchema, outputSchema }', async () => {
    const tool = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['t'] } };
    assert.equal(await toolFingerprint(tool), await fingerprint(tool));
  });

  it('leaves out a schema the tool does not have', async () => {
    assert.equal(
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
      sha256('{"inputSchema":{"type":"object"},"name":"weather"}'),
    );
    assert.equal(
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' }, outputSchema: undefined }),
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
    );
  });

  it('ignores the description and other fields', async () => {
    const base = { name: 'weather', inputSchema: { type: 'object' } };
    assert.equal(
      await toolFingerprint({ ...base, description: 'v1', annotations: { readOnlyHint: true } } as typeof base),
      await toolFingerprint(base),
    );
  });

  it('changes with the name, the input schema or the output schema', async () => {
    const base = { name: 'weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    const prints = new Set([
      await toolFingerprint(base),
      await toolFingerprint({ ...base, name: 'forecast' }),
      await toolFingerprint({ ...base, inputSchema: { type: 'object', required: ['city'] } }),
      await toolFingerprint({ ...base, outputSchema: { type: 'array' } }),
      await toolFingerprint({ name: 'weather', inputSchema: { type: 'object' } }),
    ]);
    assert.equal(prints.size, 5);
  });

  it('tells an input schema from the same output schema', async () => {
    assert.notEqual(
      await toolFingerprint({ name: 't', inputSchema: { type: 'object' } }),
      await toolFingerprint({ name: 't', outputSchema: { type: 'object' } }),
    );
  });
});

describe('fingerprints of numbers past 2^53', () => {
  it('tell apart a decimal past 2^53 from the double it rounds to', async () => {
    const decimal = await fingerprint(lossless('{"maximum": 9007199254740993.5}'));
    const rounded = await fingerprint({ maximum: 9007199254740994 });
    assert.notEqual(decimal, rounded);
    assert.equal(await fingerprint(lossless('{"maximum": 9007199254740994}')), rounded);
  });
});
