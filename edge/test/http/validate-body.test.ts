// `validateBody` (schemaval/edge): a Hono middleware driven by app.request(), no server, no workerd.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { LosslessNumber } from 'lossless-json';
import { createEngine } from '../../../src/engine/index.ts';
import { type ValidateBodyOptions, type ValidatedBodyEnv, validateBody } from '../../src/http/validate-body.ts';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 10 } },
  required: ['city'],
  additionalProperties: false,
};

/** A route behind the middleware that echoes what it was given, and counts how often it ran. */
function appWith(routeSchema: object | boolean, options: ValidateBodyOptions = {}) {
  let reached = 0;
  const app = new Hono<ValidatedBodyEnv>();
  app.post('/forecast', validateBody(routeSchema, { engine: createEngine(), ...options }), (c) => {
    reached++;
    const body = c.get('validatedBody') as Record<string, unknown>;
    // A LosslessNumber keeps its digits as text: answer them as such.
    const days = body.days instanceof LosslessNumber ? body.days.toString() : body.days;
    return c.json({ got: { ...body, days }, daysIsLossless: body.days instanceof LosslessNumber });
  });
  return { app, reached: () => reached };
}

const post = (app: Hono<ValidatedBodyEnv>, body: BodyInit) =>
  app.request('/forecast', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('validateBody', () => {
  it('passes a valid body on to the route as validatedBody', async () => {
    const { app, reached } = appWith(schema);
    const res = await post(app, '{"city":"Oslo","days":3}');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { got: { city: 'Oslo', days: 3 }, daysIsLossless: false });
    assert.equal(reached(), 1);
  });

  it('answers 400 invalid_body with path-qualified issues and never runs the route', async () => {
    const { app, reached } = appWith(schema);
    const res = await post(app, '{"city":7,"days":12}');
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string; issues: { path: string }[] } };
    assert.equal(body.error.code, 'invalid_body');
    assert.deepEqual(body.error.issues.map((issue) => issue.path).sort(), ['$.city', '$.days']);
    assert.match(body.error.message, /^\$\.(city|days): .*\(and 1 more\)$/);
    assert.equal(reached(), 0);
  });

  it('answers 400 bad_request for a body that is not JSON, or repeats a key', async () => {
    const { app, reached } = appWith(schema);
    for (const text of ['{"city":', '{"city":"Oslo","city":"Bergen"}']) {
      const res = await post(app, text);
      assert.equal(res.status, 400, text);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'bad_request');
    }
    assert.equal(reached(), 0);
  });

  it('answers 400 bad_request for a body nested too deep to parse: the body is the instance, not a refused schema', async () => {
    const { app, reached } = appWith(schema);
    const res = await post(app, `{"city":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'bad_request');
    assert.match(body.error.message, /deeper than 1000/);
    assert.equal(reached(), 0);
  });

  it('answers 413 for a body over maxBytes', async () => {
    const { app, reached } = appWith(schema, { maxBytes: 64 });
    const res = await post(app, JSON.stringify({ city: 'x'.repeat(100) }));
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'body_too_large');
    assert.equal(reached(), 0);
  });

  it('answers 422 with the refusal code when the route schema itself is refused', async () => {
    const { app, reached } = appWith({ $ref: 'https://example.com/remote.json' });
    const res = await post(app, '{}');
    assert.equal(res.status, 422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'remote_ref');
    assert.equal(reached(), 0);
  });

  it('keeps integers past 2^53 exact, both for the bounds and in the value handed on', async () => {
    const { app } = appWith({ type: 'object', properties: { days: { type: 'integer', maximum: 9007199254740992 } } });
    const over = await post(app, '{"days":9007199254740993}');
    assert.equal(over.status, 400);
    const exact = await post(app, '{"days":9007199254740991}');
    assert.equal(exact.status, 200);
    const bigger = appWith({ type: 'object', properties: { days: { type: 'integer' } } });
    const kept = await post(bigger.app, '{"days":9007199254740993}');
    assert.deepEqual(await kept.json(), { got: { days: '9007199254740993' }, daysIsLossless: true });
  });
});
