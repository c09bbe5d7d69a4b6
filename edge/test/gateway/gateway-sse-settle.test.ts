// After a POST's last answer, the gateway reads the upstream's SSE stream to its end instead of cancelling it (so
// workerd can reuse the upstream connection: bench section 6 counted one new TCP connection per call before), but
// only within a bound: an upstream that keeps the stream open or keeps talking is cancelled, and the client's
// stream never waits for it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../src/engine/index.ts';
import { createMcpGateway } from '../../src/gateway/mcp-gateway.ts';
import { createMemorySessionStores } from '../../src/state/session-store.ts';

const engine = createEngine();
const answer = '{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}';

/** An upstream SSE body: the answer, then `after` (end, hang, or endless comment lines); records reads and cancel. */
function upstreamStream(after: 'end' | 'hang' | 'chatter') {
  const state = { pulls: 0, ended: false, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.pulls++;
        if (state.pulls === 1) return controller.enqueue(encoder.encode(`event: message\ndata: ${answer}\n\n`));
        if (after === 'end') {
          state.ended = true;
          return controller.close();
        }
        if (after === 'chatter') return controller.enqueue(encoder.encode(': still here\n\n'));
        await new Promise(() => undefined);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

function gatewayOver(body: ReadableStream<Uint8Array>) {
  return createMcpGateway({
    engine,
    upstreamUrl: 'http://upstream.test/mcp',
    sessions: createMemorySessionStores(),
    outputPolicy: 'enforce',
    upstreamTimeoutMs: 5000,
    fetch: (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch,
  });
}

const listPost = () =>
  new Request('http://gateway.test/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}',
  });

const until = async (done: () => boolean, capMs: number): Promise<void> => {
  for (const deadline = Date.now() + capMs; !done() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
};

describe('gateway: the upstream SSE stream after the last answer', () => {
  it('is read to its end, not cancelled, when the upstream ends it', async () => {
    const upstream = upstreamStream('end');
    const text = await (await gatewayOver(upstream.body)(listPost())).text();
    assert.match(text, /"id":7/);
    await until(() => upstream.state.ended, 2000);
    assert.equal(upstream.state.ended, true, 'the end of the upstream stream was read');
    assert.equal(upstream.state.cancelled, false);
  });

  it('is cancelled when the upstream keeps it open, and the client stream does not wait for it', async () => {
    const upstream = upstreamStream('hang');
    const text = await (await gatewayOver(upstream.body)(listPost())).text();
    assert.match(text, /"id":7/);
    await until(() => upstream.state.cancelled, 2000);
    assert.equal(upstream.state.cancelled, true);
  });

  it('is cancelled after a few reads when the upstream keeps talking, and nothing of it is relayed', async () => {
    const upstream = upstreamStream('chatter');
    const text = await (await gatewayOver(upstream.body)(listPost())).text();
    assert.doesNotMatch(text, /still here/);
    await until(() => upstream.state.cancelled, 2000);
    assert.equal(upstream.state.cancelled, true);
    assert.ok(upstream.state.pulls <= 8, `read ${upstream.state.pulls} times`);
  });
});
