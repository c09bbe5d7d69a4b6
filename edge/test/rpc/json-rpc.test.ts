import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idKey, isNotificationNamed } from '../../src/rpc/json-rpc.ts';

describe('JSON-RPC ids', () => {
  it('matches ids as the MCP SDK does (by Number(id)), so a string "7" is checked as the answer to 7', () => {
    assert.equal(idKey('7'), idKey(7));
    assert.equal(idKey('0'), idKey(0));
    assert.equal(idKey('7.0'), idKey(7));
    assert.notEqual(idKey(7), idKey(8));
  });

  it('keeps ids that are not numbers to the SDK apart', () => {
    assert.notEqual(idKey('abc'), idKey('abd'));
    assert.notEqual(idKey('abc'), idKey(Number.NaN));
    assert.equal(idKey('abc'), idKey('abc'));
    assert.notEqual(idKey(null), idKey('null'));
  });

  it('tells a notification from a request', () => {
    assert.equal(isNotificationNamed({ jsonrpc: '2.0', method: 'tools/call', params: {} }, 'tools/call'), true);
    assert.equal(isNotificationNamed({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, 'tools/call'), false);
    assert.equal(isNotificationNamed({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'tools/call'), false);
  });
});
