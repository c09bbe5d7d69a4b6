// The host adapter where the client drives MRTR (MCP 2026-07-28): the v2 SDK Client fulfils an
// InputRequiredResult's elicitation through its registered handler, then retries the call. The guard sits on that
// handler, so a wrong answer is refused before the retry is sent.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { withElicitationValidation } from '../../src/host/elicitation-guard.ts';
import { createInlineValidator } from '../../src/host/inline-validator.ts';
import { createMrtrUpstream, type MrtrUpstream, upstreamState } from '../helpers/mrtr-upstream.ts';

let upstream: MrtrUpstream | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await upstream?.close();
  client = upstream = undefined;
});

async function connect(answer: (params: Record<string, unknown>) => unknown, when: 'before' | 'after' = 'before') {
  upstream = createMrtrUpstream();
  const own = upstream;
  const validator = createInlineValidator();
  client = new Client(
    { name: 'host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const register = () => client?.setRequestHandler('elicitation/create', async (request) => answer(request.params as never) as never);
  if (when === 'before') register();
  withElicitationValidation(client, { validator });
  if (when === 'after') register();
  const transport = new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => own.handle(new Request(input, init))) as typeof fetch,
  });
  await client.connect(transport);
  return { client, upstream: own };
}

describe('host adapter, MRTR with the v2 SDK client (2026-07-28)', () => {
  for (const when of ['before', 'after'] as const) {
    it(`refuses a wrong answer before the retry is sent (handler registered ${when} the wrap)`, async () => {
      const { client, upstream } = await connect(() => ({ action: 'accept', content: { email: 'not-an-email', age: 12 } }), when);
      const error = await client.callTool({ name: 'signup', arguments: { plan: 'pro' } }).then(
        () => assert.fail('expected the call to fail'),
        (e: Error & { code?: unknown; data?: { code?: string; issues?: { path: string }[] } }) => e,
      );
      assert.match(error.message, /\$\.email/);
      assert.equal(error.data?.code, 'invalid_answer');
      assert.deepEqual(error.data?.issues?.map((i) => i.path).sort(), ['$.age', '$.email']);
      // The first round reached the upstream; no retry did.
      assert.equal(upstream.calls.length, 1);
      assert.equal(upstream.calls[0]?.inputResponses, undefined);
    });
  }

  it('sends a right answer with its defaults filled in, and the upstream state echoed', async () => {
    const { client, upstream } = await connect(() => ({ action: 'accept', content: { email: 'ada@example.com' } }));
    const result = await client.callTool({ name: 'signup', arguments: { plan: 'pro' } });
    assert.deepEqual(result.structuredContent, { email: 'ada@example.com', tier: 'free' });
    assert.equal(upstream.calls.length, 2);
    assert.deepEqual(upstream.calls[1]?.inputResponses, {
      profile: { action: 'accept', content: { email: 'ada@example.com', tier: 'free' } },
    });
    assert.equal(upstream.calls[1]?.requestState, upstreamState);
  });

  it('refuses a form outside the restricted subset without asking the person', async () => {
    let asked = 0;
    const { client, upstream } = await connect(() => {
      asked++;
      return { action: 'accept', content: {} };
    });
    const error = await client.callTool({ name: 'ship', arguments: {} }).then(
      () => assert.fail('expected the call to fail'),
      (e: Error & { data?: { code?: string } }) => e,
    );
    assert.equal(error.data?.code, 'invalid_schema');
    assert.equal(asked, 0);
    assert.equal(upstream.calls.length, 1);
  });
});
