// ALLOWED_UPSTREAMS and /mcp?upstream=URL: which upstream a request may reach, decided before anything is fetched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEdgeConfig } from '../../src/gateway/edge-config.ts';
import { chooseUpstream } from '../../src/upstream/upstream-allow-list.ts';

const defaultUrl = 'http://127.0.0.1:3001/mcp';
const { allowedUpstreams } = readEdgeConfig({
  ALLOWED_UPSTREAMS: ' https://MCP.example , http://127.0.0.1:4175/mcp,, https://docs.example:8443/',
});
const choose = (upstream?: string) => {
  const url = new URL('https://gateway.example/mcp');
  if (upstream !== undefined) url.searchParams.set('upstream', upstream);
  return chooseUpstream(url, defaultUrl, allowedUpstreams);
};

describe('ALLOWED_UPSTREAMS', () => {
  it('reads origins (any path) and exact endpoint URLs, normalised', () => {
    assert.deepEqual(allowedUpstreams, [
      { kind: 'origin', origin: 'https://mcp.example' },
      { kind: 'url', origin: 'http://127.0.0.1:4175', href: 'http://127.0.0.1:4175/mcp' },
      { kind: 'origin', origin: 'https://docs.example:8443' },
    ]);
  });

  it('refuses wildcards, other schemes and credentials rather than widen the list', () => {
    for (const entry of ['*', 'https://*.example.com', 'ftp://mcp.example', 'mcp.example', 'https://user:pw@mcp.example/mcp']) {
      assert.throws(() => readEdgeConfig({ ALLOWED_UPSTREAMS: entry }), { code: 'MISCONFIGURED', message: /ALLOWED_UPSTREAMS/ });
    }
  });
});

describe('chooseUpstream', () => {
  it('takes the configured default when the request names none', () => {
    assert.deepEqual(choose(), { ok: true, url: defaultUrl });
    assert.deepEqual(choose('  '), { ok: true, url: defaultUrl });
  });

  it('takes the default named explicitly, any path on an allowed origin, and an allowed exact URL', () => {
    assert.deepEqual(choose(defaultUrl), { ok: true, url: defaultUrl });
    assert.deepEqual(choose('https://mcp.example/v1/mcp?x=1'), { ok: true, url: 'https://mcp.example/v1/mcp?x=1' });
    assert.deepEqual(choose('HTTPS://Mcp.Example:443/mcp#frag'), { ok: true, url: 'https://mcp.example/mcp' });
    assert.deepEqual(choose('http://127.0.0.1:4175/mcp'), { ok: true, url: 'http://127.0.0.1:4175/mcp' });
  });

  it('refuses look-alike hosts, other ports, schemes and paths, and credentials in the URL', () => {
    for (const upstream of [
      'https://mcp.example.evil.test/mcp',
      'https://evilmcp.example/mcp',
      'https://evil.test/mcp.example',
      'https://evil.test/?u=https://mcp.example',
      'https://mcp.example@evil.test/mcp',
      'https://user:pw@mcp.example/mcp',
      'http://mcp.example/mcp',
      'https://mcp.example:8443/mcp',
      'http://127.0.0.1:4175/mcp/other',
      'http://127.0.0.1:4175/mcp?x=1',
      'http://127.0.0.1:4176/mcp',
      'http://localhost:4175/mcp',
      'http://127.0.0.1:3001/other',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
    ]) {
      const choice = choose(upstream);
      assert.equal(choice.ok, false, upstream);
      assert.equal(!choice.ok && choice.code, 'upstream_not_allowed', upstream);
    }
  });

  it('asks for an upstream when there is no default and the request names none', () => {
    const choice = chooseUpstream(new URL('https://gateway.example/mcp'), null, allowedUpstreams);
    assert.equal(!choice.ok && choice.code, 'upstream_not_configured');
  });
});
