// The real edge Worker inside workerd (Miniflare): bundled from edge/src/index.ts as wrangler would, configured from
// edge/wrangler.jsonc by wrangler's own converter, and called over HTTP and over a service binding's RPC.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const allowed = 'https://app.example';
let mf: Miniflare;

/** A second Worker that calls the edge over its service binding: POST {method, args} → the RPC result. */
const callerScript = `
export default {
  async fetch(request, env) {
    const { method, args } = await request.json();
    try {
      return Response.json({ result: await env.SCHEMAVAL[method](...args) });
    } catch (error) {
      return Response.json({ thrown: String(error && error.message) });
    }
  },
};`;

async function rpc(method: string, ...args: unknown[]): Promise<{ result?: unknown; thrown?: string }> {
  const res = await mf.dispatchFetch('http://caller.test/', { method: 'POST', body: JSON.stringify({ method, args }) });
  return (await res.json()) as { result?: unknown; thrown?: string };
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  mf.dispatchFetch(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

before(async () => {
  // wrangler writes logs under $XDG_CONFIG_HOME on import: keep them in the checkout, as .ci/run does.
  process.env.XDG_CONFIG_HOME ??= fileURLToPath(new URL('../../../.cache/xdg', import.meta.url));
  process.env.WRANGLER_SEND_METRICS ??= 'false';
  // The Worker serves the demo page as assets, so wrangler's converter wants the folder to exist.
  const { buildPage } = (await import('../../../scripts/build-page.mjs')) as { buildPage: (o?: { quiet?: boolean }) => Promise<unknown> };
  await buildPage({ quiet: true });
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler');
  const config = fileURLToPath(new URL('../../wrangler.jsonc', import.meta.url));
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  // The options wrangler's own bundler uses for workerd: ESM, neutral platform, the workerd export conditions.
  const bundle = await build({
    entryPoints: [main ?? fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*'],
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  mf = new Miniflare({
    host: '127.0.0.1',
    cf: false,
    workers: [
      {
        ...workerOptions,
        name: 'schemaval-edge',
        modules: true,
        script,
        bindings: { ...workerOptions.bindings, CORS_ORIGINS: `${allowed}, http://localhost:5173` },
      },
      // The same Worker with a var it must not guess at.
      {
        ...workerOptions,
        durableObjects: {},
        name: 'misconfigured',
        routes: ['misconfigured.test/*'],
        modules: true,
        script,
        bindings: { ...workerOptions.bindings, OUTPUT_POLICY: 'strict' },
      },
      {
        name: 'caller',
        routes: ['caller.test/*'],
        modules: true,
        script: callerScript,
        compatibilityDate: workerOptions.compatibilityDate ?? '2026-04-20',
        serviceBindings: { SCHEMAVAL: { name: 'schemaval-edge', entrypoint: 'SchemavalRpc' } },
      },
    ],
  });
  await mf.ready;
});

after(async () => {
  await mf?.dispose();
});

describe('the edge Worker in workerd', () => {
  it('answers GET /healthz', async () => {
    const res = await mf.dispatchFetch('http://localhost/healthz');
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { ok: boolean }).ok, true);
  });

  it('validates with exact integers past 2^53', async () => {
    const res = await post('/v1/validate', '{"schema":{"maximum":9007199254740992},"instance":9007199254740993}');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { status: string; issues: { message: string }[] };
    assert.equal(body.status, 'invalid');
    assert.match(body.issues[0]?.message ?? '', /9007199254740993/);
    const same = await post('/v1/validate', '{"schema":{"const":9007199254740993},"instance":9007199254740993}');
    assert.deepEqual(await same.json(), { status: 'valid' });
  });

  it('answers 422 with the refusal code', async () => {
    const res = await post('/v1/validate', '{"schema":{"$ref":"https://example.com/s.json"},"instance":1}');
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'remote_ref');
  });

  it('answers 413 for a body over the default limit, with and without Content-Length', async () => {
    const big = `{"schema":true,"instance":"${'x'.repeat(1_400_000)}"}`;
    const declared = await post('/v1/validate', big);
    assert.equal(declared.status, 413);
    assert.equal(((await declared.json()) as { error: { code: string } }).error.code, 'body_too_large');
    const chunks = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunks.length; i += 65_536) controller.enqueue(chunks.subarray(i, i + 65_536));
        controller.close();
      },
    });
    const streamed = await mf.dispatchFetch('http://localhost/v1/validate', { method: 'POST', body: stream, duplex: 'half' });
    assert.equal(streamed.status, 413);
    await streamed.arrayBuffer();
  });

  it('answers POST /v1/tools with one verdict per tool', async () => {
    const tools = [
      { name: 'ok', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
      { name: 'remote', inputSchema: { type: 'object', properties: { p: { $ref: 'https://example.com/p.json' } } } },
    ];
    const res = await post('/v1/tools', JSON.stringify({ tools }));
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      tools: { name: string; status: string; fingerprint: string; input: { refusal?: { code: string } } }[];
    };
    assert.deepEqual(
      body.tools.map((t) => [t.name, t.status, t.input.refusal?.code]),
      [
        ['ok', 'accepted', undefined],
        ['remote', 'refused', 'remote_ref'],
      ],
    );
    assert.match(body.tools[0]?.fingerprint ?? '', /^[0-9a-f]{64}$/);
  });

  it('reads CORS_ORIGINS from its vars', async () => {
    const ok = await mf.dispatchFetch('http://localhost/healthz', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(ok.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    await ok.arrayBuffer();
    const other = await mf.dispatchFetch('http://localhost/healthz', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    await other.arrayBuffer();
  });

  it('answers unknown routes and /mcp (no gateway configured) with a JSON 404', async () => {
    for (const path of ['/nope', '/mcp']) {
      const res = await mf.dispatchFetch(`http://localhost${path}`);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });
});

describe('a misconfigured edge Worker', () => {
  it('answers every request with 500 misconfigured naming the var, instead of guessing', async () => {
    const res = await mf.dispatchFetch('http://misconfigured.test/healthz');
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, 'misconfigured');
    assert.match(error.message, /OUTPUT_POLICY/);
  });
});

describe('the SchemavalRpc entrypoint over a service binding', () => {
  it('validates and returns the verdict as data', async () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', maximum: 10 } } };
    assert.deepEqual(await rpc('validate', schema, { n: 3 }), { result: { status: 'valid' } });
    assert.deepEqual(await rpc('validate', schema, { n: 12 }), {
      result: { status: 'invalid', issues: [{ path: '$.n', keyword: 'maximum', message: 'got 12, want at most 10' }] },
    });
  });

  it('returns a refusal as data, not as a thrown error', async () => {
    type Refused = { status: string; refusal: { code: string } };
    const { result } = await rpc('validate', { $ref: 'https://example.com/s.json' }, 1);
    assert.deepEqual([(result as Refused).status, (result as Refused).refusal.code], ['refused', 'remote_ref']);
    const string = await rpc('validate', 'not-a-schema', 1);
    assert.deepEqual([(string.result as Refused).status, (string.result as Refused).refusal.code], ['refused', 'invalid_schema']);
  });

  it('validates JSON text losslessly with validateJson', async () => {
    const { result } = await rpc('validateJson', { maximum: 9007199254740992 }, '9007199254740993');
    assert.equal((result as { status: string }).status, 'invalid');
  });

  it('compiles tools into the same verdicts as POST /v1/tools', async () => {
    const tools = [{ name: 'echo', inputSchema: { type: 'object', required: ['text'] } }, { name: 'broken' }];
    const { result } = await rpc('compileTools', tools);
    const http = (await (await post('/v1/tools', JSON.stringify({ tools }))).json()) as { tools: unknown };
    assert.deepEqual(result, http.tools);
    assert.deepEqual(
      (result as { name: string; status: string }[]).map((t) => [t.name, t.status]),
      [
        ['echo', 'accepted'],
        ['broken', 'refused'],
      ],
    );
  });

  it('rejects a call that is not a tool list with an error the caller sees', async () => {
    const { thrown } = await rpc('compileTools', 'nope');
    assert.match(thrown ?? '', /array of tools/);
  });
});
