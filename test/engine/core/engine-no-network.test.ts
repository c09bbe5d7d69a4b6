// No network, ever (docs/architecture.md#schema-policy-and-refusal-codes): references and identifiers that point at a live server are never fetched.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { compileSchema, createEngine } from '../../../src/engine/index.ts';

describe('no network', () => {
  let server: Server;
  let origin = '';
  let requests = 0;
  let fetchCalls = 0;
  const realFetch = globalThis.fetch;

  before(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/schema+json' });
      response.end(JSON.stringify({ type: 'string' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      fetchCalls++;
      return realFetch(...args);
    }) as typeof fetch;
  });

  after(async () => {
    globalThis.fetch = realFetch;
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  /** Lets any stray request reach the server before counting. */
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

  it('has a live server that counts requests (sanity check of the spy)', async () => {
    const response = await realFetch(`${origin}/probe.json`);
    await response.text();
    assert.equal(requests, 1);
    requests = 0;
  });

  it('refuses a $ref to the server as remote_ref without a request', async () => {
    const result = compileSchema({ type: 'object', properties: { a: { $ref: `${origin}/address.json` } } });
    assert.equal(result.status === 'refused' && result.refusal.code, 'remote_ref');
    assert.ok(result.status === 'refused' && result.refusal.message.includes('#/properties/a/$ref'));
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });

  it('refuses a relative $ref resolved against an $id on the server without a request', async () => {
    const result = compileSchema({ $id: `${origin}/schemas/root.json`, properties: { a: { $ref: 'other.json#/definitions/x' } } });
    assert.equal(result.status === 'refused' && result.refusal.code, 'remote_ref');
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });

  it('refuses a remote $ref in an unused $defs entry without a request', async () => {
    const result = compileSchema({ $defs: { unused: { $ref: `${origin}/unused.json` } } });
    assert.equal(result.status === 'refused' && result.refusal.code, 'remote_ref');
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });

  it('refuses a $schema on the server as unsupported_dialect without a request', async () => {
    const result = compileSchema({ $schema: `${origin}/meta-schema`, type: 'object' });
    assert.equal(result.status === 'refused' && result.refusal.code, 'unsupported_dialect');
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });

  it('compiles and validates a schema whose $id is on the server, using only local references', async () => {
    const result = compileSchema({
      $id: `${origin}/schemas/order.json`,
      type: 'object',
      properties: { id: { $ref: '#/$defs/id' }, item: { $ref: `${origin}/schemas/item.json` }, link: { type: 'string', format: 'uri' } },
      $defs: { id: { type: 'integer' }, item: { $id: `${origin}/schemas/item.json`, type: 'string' } },
    });
    assert.ok(result.status === 'accepted', result.status === 'accepted' ? '' : result.refusal.message);
    assert.deepEqual(result.schema.validate({ id: 1, item: 'x', link: `${origin}/x` }), { status: 'valid' });
    assert.equal(result.schema.validate({ id: 'one', item: 2 }).status, 'invalid');
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });

  it('makes no request through the engine API: compileTools, validate, validateJson, validateElicitation', async () => {
    const engine = createEngine();
    const remote = { type: 'object', properties: { a: { $ref: `${origin}/a.json` } } };
    const [verdict] = await engine.compileTools([{ name: 'remote', inputSchema: remote, outputSchema: { $ref: `${origin}/out.json` } }]);
    assert.equal(verdict?.status, 'refused');
    assert.equal(verdict?.input?.status === 'refused' && verdict.input.refusal.code, 'remote_ref');
    const outcome = await engine.validate(remote, { a: 1 });
    assert.ok(outcome.status === 'refused' && outcome.refusal.code === 'remote_ref');
    const jsonOutcome = await engine.validateJson({ $id: `${origin}/s.json`, $ref: 'other.json' }, '{}');
    assert.ok(jsonOutcome.status === 'refused' && jsonOutcome.refusal.code === 'remote_ref');
    const form = await engine.validateElicitation(
      { type: 'object', properties: { site: { type: 'string', format: 'uri' } } },
      { site: `${origin}/form` },
    );
    assert.deepEqual(form, { status: 'valid' });
    await settle();
    assert.equal(requests, 0);
    assert.equal(fetchCalls, 0);
  });
});
