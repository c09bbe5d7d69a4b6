// The edge HTTP API in process (docs/architecture.md#edge): createApp(deps) driven by app.request(), no server, no workerd.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { main } from '../../../src/cli/main.ts';
import { createEngine, defaultPolicy, engineVersion } from '../../../src/engine/index.ts';
import { createInlineValidator } from '../../../src/host/inline-validator.ts';
import { memoryIo } from '../../../test/helpers/memory-io.ts';
import { createGatewayRouter } from '../../src/gateway/gateway-router.ts';
import { createApp } from '../../src/http/app.ts';
import { defaultMaxBodyBytes } from '../../src/http/default-max-body-bytes.ts';
import { readLimitedText, refusedBodyDrain } from '../../src/http/read-limited-text.ts';
import { allowedUpstream } from '../../src/upstream/upstream-allow-list.ts';

const tools = readFileSync(new URL('../../../examples/tools.json', import.meta.url), 'utf8');
const allowed = 'https://app.example';

function appWith(deps: Partial<Parameters<typeof createApp>[0]> = {}) {
  return createApp({ engine: createEngine(), corsOrigins: [allowed], ...deps });
}

const post = (app: ReturnType<typeof appWith>, path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

/** A body that does not end for a long while (10,000 chunks unless told), counting how many chunks were pulled from it. */
function endlessBody(
  chunk: Uint8Array,
  chunks = 10_000,
): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulls = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    // Yields to the event loop between chunks, so a reader that never stops fails by timeout instead of hanging.
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      pulls++;
      if (pulls > chunks) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulls, cancelled: () => cancelled };
}

describe('GET /healthz', () => {
  it('answers ok with the engine version', async () => {
    const { status, body } = await json(await appWith().request('/healthz'));
    assert.equal(status, 200);
    assert.equal(body.ok, true);
    assert.equal(body.engineVersion, engineVersion);
  });
});

describe('POST /v1/validate', () => {
  const schema = {
    type: 'object',
    required: ['city'],
    properties: {
      count: { type: 'integer', maximum: 10 },
      items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  };

  it('answers {"status":"valid"} for a valid instance', async () => {
    const res = await post(appWith(), '/v1/validate', JSON.stringify({ schema, instance: { city: 'Oslo', count: 3 } }));
    assert.deepEqual(await json(res), { status: 200, body: { status: 'valid' } });
  });

  it('answers 200 with path-qualified issues for an invalid instance', async () => {
    const instance = { count: 'x', items: [{ name: 'a' }, { name: 1 }] };
    const { status, body } = await json(await post(appWith(), '/v1/validate', JSON.stringify({ schema, instance })));
    assert.equal(status, 200);
    assert.deepEqual(body, {
      status: 'invalid',
      issues: [
        { path: '$', keyword: 'required', message: 'missing required property "city"' },
        { path: '$.count', keyword: 'type', message: 'got string, want integer' },
        { path: '$.items[1].name', keyword: 'type', message: 'got integer, want string' },
      ],
    });
  });

  it('treats null as an instance, not as a missing field', async () => {
    const res = await post(appWith(), '/v1/validate', '{"schema":{"type":"null"},"instance":null}');
    assert.deepEqual(await json(res), { status: 200, body: { status: 'valid' } });
  });

  it('compares integers past 2^53 exactly, because the body is parsed losslessly', async () => {
    const app = appWith();
    const over = await json(await post(app, '/v1/validate', '{"schema":{"maximum":9007199254740992},"instance":9007199254740993}'));
    assert.equal(over.status, 200);
    assert.equal(over.body.status, 'invalid');
    const [issue] = over.body.issues as { path: string; keyword: string; message: string }[];
    assert.equal(issue?.keyword, 'maximum');
    assert.match(issue?.message ?? '', /9007199254740993/);
    // As doubles both numbers are 2^53, so this one passes only when the comparison is exact too.
    const equal = await json(await post(app, '/v1/validate', '{"schema":{"const":9007199254740993},"instance":9007199254740993}'));
    assert.deepEqual(equal.body, { status: 'valid' });
    const differ = await json(await post(app, '/v1/validate', '{"schema":{"const":9007199254740993},"instance":9007199254740992}'));
    assert.equal(differ.body.status, 'invalid');
  });

  it('answers 422 with the refusal code for a remote $ref', async () => {
    const body = JSON.stringify({ schema: { $ref: 'https://example.com/person.json' }, instance: {} });
    const res = await json(await post(appWith(), '/v1/validate', body));
    assert.equal(res.status, 422);
    const error = res.body.error as { code: string; message: string };
    assert.equal(error.code, 'remote_ref');
    assert.match(error.message, /never fetched/);
    assert.deepEqual(Object.keys(res.body), ['error']);
  });

  it('answers 422 too_deep for a schema nested past maxJsonDepth, not 400', async () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < defaultPolicy.maxJsonDepth + 10; i++) deep = { type: 'object', properties: { a: deep } };
    const res = await json(await post(appWith(), '/v1/validate', JSON.stringify({ schema: deep, instance: {} })));
    assert.equal(res.status, 422);
    assert.equal((res.body.error as { code: string }).code, 'too_deep');
  });

  it('answers 422 too_deep for a schema too deep to parse (5,000 levels), as for any too-deep schema', async () => {
    const schema = `${'{"not":'.repeat(5000)}true${'}'.repeat(5000)}`;
    const res = await json(await post(appWith(), '/v1/validate', `{"schema":${schema},"instance":1}`));
    assert.equal(res.status, 422);
    const error = res.body.error as { code: string; message: string };
    assert.equal(error.code, 'too_deep');
    assert.match(error.message, /deeper than 1000/);
  });

  it('answers 422 too_deep for an instance too deep to parse, and for a tool list that is', async () => {
    const instance = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await json(await post(appWith(), '/v1/validate', `{"schema":true,"instance":${instance}}`));
    assert.equal(res.status, 422);
    assert.equal((res.body.error as { code: string }).code, 'too_deep');
    const tools = await json(await post(appWith(), '/v1/tools', `{"tools":[{"name":"deep","inputSchema":${instance}}]}`));
    assert.equal(tools.status, 422);
    assert.equal((tools.body.error as { code: string }).code, 'too_deep');
  });

  it('answers 422 invalid_schema for a string schema instead of looking it up as a fingerprint', async () => {
    const app = appWith();
    // Compile a schema first, so its fingerprint exists in this engine's cache.
    await post(app, '/v1/validate', JSON.stringify({ schema: { type: 'string' }, instance: 'x' }));
    const res = await json(await post(app, '/v1/validate', JSON.stringify({ schema: 'ab'.repeat(32), instance: 'x' })));
    assert.equal(res.status, 422);
    assert.equal((res.body.error as { code: string }).code, 'invalid_schema');
  });

  it('reports a too-deep instance as invalid at $, not as a bad request', async () => {
    const instance = JSON.parse(`${'['.repeat(defaultPolicy.maxInstanceDepth + 5)}${']'.repeat(defaultPolicy.maxInstanceDepth + 5)}`);
    const res = await json(await post(appWith(), '/v1/validate', JSON.stringify({ schema: true, instance })));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      status: 'invalid',
      issues: [{ path: '$', keyword: 'maxInstanceDepth', message: 'nesting deeper than 64' }],
    });
  });

  it('answers 400 bad_request for a body that is not JSON', async () => {
    for (const body of ['{"schema":{},"instance":', '', 'schema=1&instance=2', '{"schema":{},"schema":true,"instance":1}']) {
      const res = await json(await post(appWith(), '/v1/validate', body));
      assert.equal(res.status, 400, body);
      const error = res.body.error as { code: string; message: string };
      assert.equal(error.code, 'bad_request');
      assert.match(error.message, /^body is not valid JSON/);
    }
  });

  it('answers 400 bad_request for a repeated key, even with an equal value', async () => {
    for (const body of ['{"a":1,"a":1}', '{"schema":true,"instance":{"id":1,"id":1}}']) {
      const res = await json(await post(appWith(), '/v1/validate', body));
      assert.equal(res.status, 400, body);
      assert.match((res.body.error as { message: string }).message, /^body is not valid JSON: duplicate object key/);
    }
  });

  it('answers 400 bad_request when schema or instance is missing', async () => {
    for (const body of [
      '{"schema":{}}',
      '{"instance":1}',
      '[{"schema":{},"instance":1}]',
      '{"__proto__":{"schema":{},"instance":1}}',
      '7',
    ]) {
      const res = await json(await post(appWith(), '/v1/validate', body));
      assert.equal(res.status, 400, body);
      assert.equal((res.body.error as { code: string }).code, 'bad_request');
    }
  });

  it('answers 400 for a body that is not UTF-8', async () => {
    const res = await json(await post(appWith(), '/v1/validate', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])));
    assert.equal(res.status, 400);
    assert.match((res.body.error as { message: string }).message, /UTF-8/);
  });

  it('answers 413 from Content-Length before parsing anything, and drains the upload instead of cancelling it', {
    timeout: 5000,
  }, async () => {
    const body = endlessBody(new Uint8Array(100), 200);
    const res = await appWith({ maxBodyBytes: 1024 }).request('/v1/validate', {
      method: 'POST',
      body: body.stream,
      headers: { 'content-length': '1025' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'body_too_large');
    // A cancelled upload costs the next request through wrangler dev its connection (issue #17): read to its end.
    assert.equal(body.pulled(), 201, 'read to its end');
    assert.equal(body.cancelled(), false);
  });

  it('cancels unread a body whose declared length is past what a refusal drains', { timeout: 5000 }, async () => {
    const body = endlessBody(new Uint8Array(100));
    const res = await appWith({ maxBodyBytes: 1024 }).request('/v1/validate', {
      method: 'POST',
      body: body.stream,
      headers: { 'content-length': String(refusedBodyDrain.maxBytes + 1) },
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.ok(body.pulled() <= 1, `pulled ${body.pulled()} chunks`);
    assert.ok(body.cancelled(), 'the upload is cancelled');
  });

  it('answers 413 by counting streamed bytes, keeps none past the limit, and stops reading after the drain bound', {
    timeout: 5000,
  }, async () => {
    const chunk = 256 * 1024;
    const body = endlessBody(new TextEncoder().encode(' '.repeat(chunk)), 1000);
    const res = await appWith({ maxBodyBytes: 1024 }).request('/v1/validate', {
      method: 'POST',
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    // 256 MiB on offer: one chunk passes the limit, then at most refusedBodyDrain.maxBytes are read and dropped.
    assert.ok(body.pulled() <= Math.ceil(refusedBodyDrain.maxBytes / chunk) + 2, `pulled ${body.pulled()} chunks`);
    assert.ok(body.pulled() > Math.floor(refusedBodyDrain.maxBytes / chunk), `pulled only ${body.pulled()} chunks`);
    assert.ok(body.cancelled(), 'the upload is cancelled');
  });

  it('answers 413 when Content-Length understates the bytes actually sent', async () => {
    const res = await post(appWith({ maxBodyBytes: 1024 }), '/v1/validate', `{"schema":true,"instance":"${'x'.repeat(2000)}"}`, {
      'content-length': '10',
    });
    assert.equal(res.status, 413);
  });

  it('defaults the limit to maxSchemaBytes + maxInstanceBytes + 64 KiB', async () => {
    const limit = defaultMaxBodyBytes(defaultPolicy);
    assert.equal(limit, 262_144 + 1_048_576 + 65_536);
    const envelope = '{"schema":true,"instance":""}';
    const fits = `{"schema":true,"instance":"${'x'.repeat(limit - envelope.length)}"}`;
    const app = appWith();
    assert.equal((await post(app, '/v1/validate', fits)).status, 200);
    assert.equal((await post(app, '/v1/validate', `${fits} `)).status, 413);
  });

  it('answers 405 for another method', async () => {
    const res = await appWith().request('/v1/validate');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });
});

describe('POST /v1/tools', () => {
  it('answers with exactly what `schemaval lint --json` prints for the same tools', async () => {
    const io = memoryIo({ '-': tools });
    const exit = await main(['lint', '--json', '-'], io, { createValidator: (options) => createInlineValidator(options) });
    assert.equal(exit, 1, 'examples/tools.json has refused tools');
    const cli = JSON.parse(io.out()) as { tools: { status: string }[] };

    const res = await post(appWith(), '/v1/tools', tools);
    assert.equal(res.status, 200);
    const body = (await res.json()) as typeof cli;
    assert.deepEqual(body, cli);
    assert.equal(body.tools.length, 6);
    assert.ok(body.tools.some((tool) => tool.status === 'refused'));
    // And the engine run directly agrees.
    const direct = await createEngine().compileTools((JSON.parse(tools) as { tools: unknown[] }).tools);
    assert.deepEqual(body, JSON.parse(JSON.stringify({ tools: direct })));
  });

  it('accepts a bare array and a JSON-RPC response, as lint does', async () => {
    const tool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };
    for (const body of [[tool], { jsonrpc: '2.0', id: 1, result: { tools: [tool] } }]) {
      const res = await json(await post(appWith(), '/v1/tools', JSON.stringify(body)));
      assert.equal(res.status, 200);
      assert.deepEqual(
        (res.body.tools as { name: string; status: string }[]).map((t) => [t.name, t.status]),
        [['echo', 'accepted']],
      );
    }
  });

  it('answers 400 for a body without a tool list, and 413 over the limit', async () => {
    for (const body of ['{"tools":5}', '{"tool":[]}', 'null', '{"tools":[']) {
      const res = await json(await post(appWith(), '/v1/tools', body));
      assert.equal(res.status, 400, body);
      assert.equal((res.body.error as { code: string }).code, 'bad_request');
    }
    const res = await post(appWith({ maxBodyBytes: 1024 }), '/v1/tools', tools);
    assert.equal(res.status, 413);
  });
});

describe('CORS', () => {
  it('sends CORS headers to a configured origin, on requests and preflights', async () => {
    const app = appWith();
    const res = await post(app, '/v1/validate', '{"schema":true,"instance":1}', { origin: allowed });
    assert.equal(res.headers.get('access-control-allow-origin'), allowed);
    const preflight = await app.request('/v1/validate', {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), allowed);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
  });

  it('lets a configured origin send what an MCP client sends to /mcp, and read the session id', async () => {
    const preflight = await appWith().request('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: allowed,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id',
      },
    });
    assert.equal(preflight.status, 204);
    const headers = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const name of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
      assert.ok(headers.includes(name), `${name} in ${headers.join(', ')}`);
    }
    const res = await appWith().request('/healthz', { headers: { origin: allowed } });
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id/i);
  });

  it('sends no CORS header at all to any other origin', async () => {
    const app = appWith();
    const responses = [
      await post(app, '/v1/validate', '{"schema":true,"instance":1}', { origin: 'https://evil.example' }),
      await app.request('/healthz', { headers: { origin: `${allowed}.evil.example` } }),
      await app.request('/v1/validate', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
    ];
    for (const res of responses) {
      const cors = [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
      assert.deepEqual(cors, [], `${res.status}: ${cors.join(', ')}`);
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  it('sends none when no origin is configured', async () => {
    const res = await createApp({ engine: createEngine() }).request('/healthz', { headers: { origin: allowed } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

describe('other routes and errors', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const res = await json(await appWith().request('/v2/validate', { method: 'POST', body: '{}' }));
    assert.deepEqual(res, { status: 404, body: { error: { code: 'not_found', message: 'no route for POST /v2/validate' } } });
  });

  it('answers /mcp with 404 without a gateway, and hands it to deps.mcp when there is one', async () => {
    assert.equal((await appWith().request('/mcp', { method: 'POST', body: '{}' })).status, 404);
    const seen: string[] = [];
    const app = appWith({
      mcp: (c) => {
        seen.push(c.req.method);
        return c.json({ gateway: true }, 202);
      },
    });
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await app.request('/mcp', { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      assert.equal(res.status, 202);
    }
    assert.deepEqual(seen, ['GET', 'POST', 'DELETE']);
  });

  it('answers an unexpected error with a fixed 500 body, never the message or stack', async (t) => {
    const logged = t.mock.method(console, 'error', () => undefined);
    const app = appWith({
      mcp: () => {
        throw new Error('secret upstream token abc123');
      },
    });
    const res = await app.request('/mcp', { method: 'POST', body: '{}' });
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { error: { code: 'internal', message: 'internal error' } });
    assert.doesNotMatch(text, /secret|abc123|at /);
    assert.equal(logged.mock.callCount(), 1, 'the operator still sees it in the log');
  });
});

describe('refused bodies are drained within bounds, not cancelled (issue #17)', () => {
  it('drains the body of an /mcp request for an upstream not on the allow-list, and fetches nothing', { timeout: 5000 }, async () => {
    const built: string[] = [];
    const router = createGatewayRouter({
      defaultUpstream: 'https://mcp.example/mcp',
      allowed: [allowedUpstream('https://other.example') ?? assert.fail('entry')],
      gatewayFor: (url) => {
        built.push(url);
        return async () => new Response('{}');
      },
    });
    const app = appWith({ mcp: (c) => router(c.req.raw) });
    const body = endlessBody(new Uint8Array(100), 200);
    const res = await app.request(`/mcp?upstream=${encodeURIComponent('https://evil.test/mcp')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { error: { data: { code: string } } }).error.data.code, 'upstream_not_allowed');
    assert.equal(body.pulled(), 201, 'read to its end');
    assert.equal(body.cancelled(), false);
    assert.deepEqual(built, []);
  });

  it('cancels unread a refused body whose client waits for 100 Continue: nothing of it was sent', { timeout: 5000 }, async () => {
    const body = endlessBody(new Uint8Array(100), 200);
    const res = await appWith({ maxBodyBytes: 1024 }).request('/v1/validate', {
      method: 'POST',
      body: body.stream,
      headers: { 'content-length': '1025', expect: '100-continue' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.ok(body.pulled() <= 1, `pulled ${body.pulled()} chunks`);
    assert.ok(body.cancelled(), 'the upload is cancelled');
  });

  it('cancels a refused body that stops sending, once the drain time is up', async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(2048));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://edge.test/v1/validate', { method: 'POST', body: stalled, duplex: 'half' } as RequestInit);
    const read = await readLimitedText(request, 1024, { maxBytes: 1024 * 1024, maxMs: 20 });
    assert.deepEqual(read, { ok: false, reason: 'too_large', message: 'body over 1024 bytes' });
    assert.ok(cancelled, 'the upload is cancelled');
  });
});
