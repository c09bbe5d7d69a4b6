// The Worker's vars (wrangler.jsonc) as the entry reads them: defaults, normalisation, and loud misconfiguration.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultUpstreamMaxBytes, readEdgeConfig } from '../../src/gateway/edge-config.ts';

describe('readEdgeConfig', () => {
  it('reads the wrangler.jsonc defaults as "nothing configured" with the warn output policy', () => {
    assert.deepEqual(readEdgeConfig({ UPSTREAM_MCP_URL: '', CORS_ORIGINS: '', OUTPUT_POLICY: 'warn' }), {
      upstreamMcpUrl: null,
      allowedUpstreams: [],
      corsOrigins: [],
      outputPolicy: 'warn',
      upstreamTimeoutMs: 30_000,
      upstreamMaxBytes: 4 * 1024 * 1024,
      requestStateSecret: null,
      sessionSecret: null,
    });
    assert.equal(defaultUpstreamMaxBytes, 4 * 1024 * 1024);
    assert.equal(readEdgeConfig({}).outputPolicy, 'warn');
  });

  it('takes REQUEST_STATE_SECRET of 32 characters or more, and refuses a shorter one', () => {
    assert.equal(readEdgeConfig({ REQUEST_STATE_SECRET: 'k'.repeat(32) }).requestStateSecret, 'k'.repeat(32));
    assert.throws(() => readEdgeConfig({ REQUEST_STATE_SECRET: 'short' }), { code: 'MISCONFIGURED', message: /REQUEST_STATE_SECRET/ });
  });

  it('takes SESSION_SECRET of 32 characters or more, and refuses a shorter one', () => {
    assert.equal(readEdgeConfig({ SESSION_SECRET: 's'.repeat(32) }).sessionSecret, 's'.repeat(32));
    assert.throws(() => readEdgeConfig({ SESSION_SECRET: 'short' }), { code: 'MISCONFIGURED', message: /SESSION_SECRET/ });
  });

  it('reads the upstream bounds as positive whole numbers and refuses anything else', () => {
    const config = readEdgeConfig({ UPSTREAM_TIMEOUT_MS: ' 500 ', UPSTREAM_MAX_BYTES: '1024' });
    assert.equal(config.upstreamTimeoutMs, 500);
    assert.equal(config.upstreamMaxBytes, 1024);
    for (const value of ['0', '-1', '1.5', 'ten', '1e3']) {
      assert.throws(() => readEdgeConfig({ UPSTREAM_TIMEOUT_MS: value }), { code: 'MISCONFIGURED', message: /UPSTREAM_TIMEOUT_MS/ });
      assert.throws(() => readEdgeConfig({ UPSTREAM_MAX_BYTES: value }), { code: 'MISCONFIGURED', message: /UPSTREAM_MAX_BYTES/ });
    }
  });

  it('splits CORS_ORIGINS on commas and normalises each entry to the form browsers send', () => {
    const config = readEdgeConfig({ CORS_ORIGINS: ' https://App.Example/ , http://localhost:5173,, * ' });
    assert.deepEqual(config.corsOrigins, ['https://app.example', 'http://localhost:5173', '*']);
  });

  it('refuses a CORS entry that is not an origin', () => {
    for (const entry of ['app.example', 'https://app.example/path', 'https://app.example?x=1']) {
      assert.throws(() => readEdgeConfig({ CORS_ORIGINS: entry }), { code: 'MISCONFIGURED', message: /CORS_ORIGINS/ });
    }
  });

  it('accepts the three output policies and refuses anything else rather than guessing', () => {
    for (const policy of ['warn', 'enforce', 'off'] as const) assert.equal(readEdgeConfig({ OUTPUT_POLICY: policy }).outputPolicy, policy);
    assert.throws(() => readEdgeConfig({ OUTPUT_POLICY: 'strict' }), { code: 'MISCONFIGURED', message: /OUTPUT_POLICY/ });
  });

  it('takes an http(s) upstream URL and refuses other schemes', () => {
    assert.equal(readEdgeConfig({ UPSTREAM_MCP_URL: ' https://mcp.example/mcp ' }).upstreamMcpUrl, 'https://mcp.example/mcp');
    for (const url of ['ftp://mcp.example/', 'not a url', 'file:///etc/passwd']) {
      assert.throws(() => readEdgeConfig({ UPSTREAM_MCP_URL: url }), { code: 'MISCONFIGURED', message: /UPSTREAM_MCP_URL/ });
    }
  });
});
