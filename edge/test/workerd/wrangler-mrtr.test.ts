// MRTR (MCP 2026-07-28) in real workerd: a v2 SDK Client → the gateway under `wrangler dev` (REQUEST_STATE_SECRET
// passed as a var) → a v2 SDK upstream on 127.0.0.1 that asks for a form in an InputRequiredResult.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMrtrUpstream, type MrtrUpstream, upstreamState } from '../../../test/helpers/mrtr-upstream.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

describe('gateway MRTR under wrangler dev', () => {
  let upstream: MrtrUpstream;
  let dev: WranglerDev;
  let client: Client;
  let answer: () => unknown = () => ({ action: 'cancel' });

  before(async () => {
    upstream = createMrtrUpstream();
    const upstreamUrl = await upstream.listen();
    dev = await startWranglerDev({ UPSTREAM_MCP_URL: upstreamUrl, REQUEST_STATE_SECRET: 'wrangler-test-secret-of-32-chars!!' });
    client = new Client(
      { name: 'host', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => answer() as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`)));
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await dev?.stop();
    await upstream?.close();
  });

  it('refuses a wrong answer: the retry never reaches the upstream', async () => {
    answer = () => ({ action: 'accept', content: { email: 'nope' } });
    const error = await client.callTool({ name: 'signup', arguments: { plan: 'pro' } }).then(
      () => assert.fail('expected -32602'),
      (e: Error & { code?: number; data?: { code?: string; input?: string } }) => e,
    );
    assert.equal(error.code, -32602);
    assert.match(error.message, /inputResponses\.profile: \$\.email: /);
    assert.equal(error.data?.code, 'invalid_answer');
    assert.equal(upstream.calls.length, 1);
  });

  it('forwards a right answer with its defaults and the upstream state restored', async () => {
    answer = () => ({ action: 'accept', content: { email: 'ada@example.com' } });
    const result = await client.callTool({ name: 'signup', arguments: { plan: 'pro' } });
    assert.deepEqual(result.structuredContent, { email: 'ada@example.com', tier: 'free' });
    const retry = upstream.calls.at(-1);
    assert.deepEqual(retry?.inputResponses, { profile: { action: 'accept', content: { email: 'ada@example.com', tier: 'free' } } });
    assert.equal(retry?.requestState, upstreamState);
  });
});
