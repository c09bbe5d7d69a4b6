// Issue 21 item 3: a schema object seen before is found by identity, not canonicalised and hashed again: at once when
// the caller can no longer change it (deeply frozen), else while it still reads as the snapshot taken when it was
// hashed, so a mutation after a call always takes effect (fail closed). Fingerprints stay what `fingerprint` and
// `toolFingerprint` say.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isDeepFrozenJson } from '../../../src/engine/core/frozen-schema.ts';
import { createEngine, fingerprint, toolFingerprint } from '../../../src/engine/index.ts';
import { hashText } from '../../../src/engine/json/fingerprint.ts';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** A proxy that counts reads of the schema's members: the canonical writer and the copy read every one. */
function counted<T extends object>(target: T): { schema: T; reads: () => number } {
  let reads = 0;
  const schema = new Proxy(target, {
    get(t, key, receiver) {
      reads++;
      return Reflect.get(t, key, receiver);
    },
  });
  return { schema, reads: () => reads };
}

const stringSchema = () => ({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });

describe('engine: schema objects found by identity', () => {
  it('finds a deeply frozen schema by identity: the second call reads none of it', () => {
    const engine = createEngine();
    const { schema, reads } = counted(deepFreeze(stringSchema()));
    assert.deepEqual(engine.validate(schema, { a: 'x' }), { status: 'valid' });
    const afterFirst = reads();
    assert.ok(afterFirst > 0, 'the first call canonicalises and copies the schema');
    assert.equal(engine.validate(schema, { a: 1 }).status, 'invalid');
    assert.equal(engine.validateJson(schema, '{"a":"y"}').status, 'valid');
    assert.equal(engine.compile(schema).fingerprint, fingerprint(stringSchema()));
    assert.equal(reads(), afterFirst, 'no canonical pass after the first');
    const stats = engine.stats();
    assert.equal(stats.compiles, 1);
    assert.equal(stats.cacheHits, 3);
  });

  it('reads a schema that is not frozen again on every call, but hashes it once while it is unchanged', () => {
    let hashes = 0;
    const engine = createEngine({
      hashText: (text) => {
        hashes++;
        return hashText(text);
      },
    });
    const { schema, reads } = counted(stringSchema());
    engine.validate(schema, { a: 'x' });
    const afterFirst = reads();
    assert.equal(hashes, 1);
    assert.equal(engine.validate(schema, { a: 1 }).status, 'invalid');
    assert.equal(engine.validateElicitation(schema, { a: 'x' }).status, 'valid');
    assert.ok(reads() > afterFirst, 'read again (compared with its snapshot)');
    assert.equal(hashes, 1, 'not canonicalised and hashed again');
    assert.equal(engine.compile(schema).fingerprint, fingerprint(stringSchema()));
    const unchanged = structuredClone(stringSchema());
    engine.validate(unchanged, { a: 'x' });
    assert.equal(hashes, 2, 'an equal object of its own is hashed for itself');
  });

  it('hashes a schema again once it changed, also for a change of order only', () => {
    let hashes = 0;
    const engine = createEngine({
      hashText: (text) => {
        hashes++;
        return hashText(text);
      },
    });
    const schema: Record<string, unknown> = { type: 'string', minLength: 2 };
    assert.equal(engine.validate(schema, 'x').status, 'invalid');
    delete schema.type;
    schema.type = 'string';
    assert.equal(engine.validate(schema, 'x').status, 'invalid');
    assert.equal(hashes, 2, 'another text, so hashed again');
    assert.equal(engine.stats().compiles, 1, 'to the same fingerprint');
    schema.minLength = 1;
    assert.equal(engine.validate(schema, 'x').status, 'valid');
    assert.equal(hashes, 3);
  });

  it('finds a schema JSON.stringify cannot write (a bigint) by identity, and sees its bound change', () => {
    let hashes = 0;
    const engine = createEngine({
      hashText: (text) => {
        hashes++;
        return hashText(text);
      },
    });
    const schema = { type: 'integer', maximum: 10n };
    assert.equal(engine.validate(schema, 11).status, 'invalid');
    assert.equal(engine.validate(schema, 9).status, 'valid');
    assert.equal(hashes, 1);
    schema.maximum = 8n;
    assert.equal(engine.validate(schema, 9).status, 'invalid');
    assert.equal(hashes, 2);
  });

  it('refuses a schema once NaN stands where null stood, which its JSON text would not show', () => {
    const engine = createEngine();
    const schema: { enum: unknown[] } = { enum: [null, 'a'] };
    assert.equal(engine.validate(schema, null).status, 'valid');
    schema.enum[0] = Number.NaN;
    assert.equal(JSON.stringify(schema), '{"enum":[null,"a"]}', 'the same text as before');
    const outcome = engine.validate(schema, null);
    assert.equal(outcome.status, 'refused');
    assert.equal(outcome.status === 'refused' && outcome.refusal.code, 'invalid_schema');
  });

  it('follows a mutation a toJSON would hide from JSON text', () => {
    const engine = createEngine();
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(engine.validate(schema, { a: 'x' }).status, 'valid');
    const member = schema.properties.a as { type: string; toJSON?: () => unknown };
    member.toJSON = () => ({ type: 'string' });
    member.type = 'number';
    // The toJSON member is no JSON value, so the schema is refused rather than validated as it was.
    const outcome = engine.validate(schema, { a: 'x' });
    assert.equal(
      outcome.status === 'refused' && outcome.refusal.message,
      'not JSON at schema.properties.a.toJSON: a function is not a JSON value',
    );
  });

  it('follows a getter that answers differently on an object that is not frozen', () => {
    const engine = createEngine();
    let type = 'string';
    const schema = {
      get type() {
        return type;
      },
    };
    assert.equal(engine.validate(schema, 'x').status, 'valid');
    type = 'number';
    assert.equal(engine.validate(schema, 'x').status, 'invalid');
  });

  it('follows a mutation of a schema object that is not frozen', () => {
    const engine = createEngine();
    const schema = stringSchema();
    assert.equal(engine.validate(schema, { a: 'x' }).status, 'valid');
    schema.properties.a.type = 'number';
    assert.equal(engine.validate(schema, { a: 'x' }).status, 'invalid');
    assert.equal(engine.validate(schema, { a: 1 }).status, 'valid');
    assert.equal(
      engine.compile(schema).fingerprint,
      fingerprint({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }),
    );
  });

  it('follows a mutation below a frozen root (frozen only at the top)', () => {
    const engine = createEngine();
    const schema = Object.freeze(stringSchema());
    assert.equal(engine.validate(schema, { a: 'x' }).status, 'valid');
    schema.properties.a.type = 'number';
    assert.equal(engine.validate(schema, { a: 'x' }).status, 'invalid');
  });

  it('follows a frozen getter that answers differently (never kept by identity)', () => {
    const engine = createEngine();
    let type = 'string';
    const schema = Object.freeze({
      get type() {
        return type;
      },
    });
    assert.equal(engine.validate(schema, 'x').status, 'valid');
    type = 'number';
    assert.equal(engine.validate(schema, 'x').status, 'invalid');
  });

  it('does not keep a frozen object with a prototype of its own by identity', () => {
    class Schema {
      type = 'string';
    }
    const schema = Object.freeze(new Schema());
    assert.equal(isDeepFrozenJson(schema), false);
    assert.equal(isDeepFrozenJson(deepFreeze(stringSchema())), true);
    assert.equal(isDeepFrozenJson(Object.freeze(stringSchema())), false);
    assert.equal(isDeepFrozenJson(true), true);
  });

  it('compiles a frozen schema again, from the same object, once the cache evicted it', () => {
    const engine = createEngine({ cacheSize: 1 });
    const a = deepFreeze({ type: 'string' });
    const b = deepFreeze({ type: 'number' });
    assert.equal(engine.validate(a, 'x').status, 'valid');
    assert.equal(engine.validate(b, 'x').status, 'invalid');
    assert.equal(engine.validate(a, 'x').status, 'valid');
    assert.equal(engine.stats().compiles, 3);
  });

  it('keeps elicitation schemas (formats asserted) apart from the same schema for tools', () => {
    const engine = createEngine();
    const requested = deepFreeze({ type: 'object', properties: { email: { type: 'string', format: 'email' } } });
    assert.equal(engine.validate(requested, { email: 'nope' }).status, 'valid', 'formats annotate for tools');
    assert.equal(engine.validateElicitation(requested, { email: 'nope' }).status, 'invalid');
    assert.equal(engine.validateElicitation(requested, { email: 'a@example.com' }).status, 'valid');
    assert.equal(engine.validate(requested, { email: 'nope' }).status, 'valid');
    assert.equal(engine.stats().compiles, 2);
  });

  it('gives a schema with no canonical form no fingerprint, frozen or not', () => {
    const engine = createEngine();
    const schema = deepFreeze({ type: 'string', description: '\ud800' });
    assert.equal(engine.compile(schema).fingerprint, '');
    assert.equal(engine.compile(schema).fingerprint, '');
    assert.equal(engine.validate(schema, 'x').status, 'refused');
  });
});

describe('engine: fingerprints unchanged on the real corpus', () => {
  const dir = new URL('../../fixtures/real-world/servers/', import.meta.url);
  const servers = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { result: { tools: Record<string, unknown>[] } }).result.tools);
  const tools = servers.flat();

  it('answers every schema fingerprint as `fingerprint` does, plain, frozen, and by identity', () => {
    const engine = createEngine();
    let schemas = 0;
    for (const tool of tools) {
      for (const side of ['inputSchema', 'outputSchema'] as const) {
        const schema = tool[side];
        if (schema === undefined) continue;
        schemas++;
        const want = fingerprint(schema);
        assert.equal(engine.compile(schema).fingerprint, want);
        const frozen = deepFreeze(structuredClone(schema));
        assert.equal(engine.compile(frozen).fingerprint, want);
        assert.equal(engine.compile(frozen).fingerprint, want, 'by identity');
      }
    }
    assert.ok(schemas > 250, `${schemas} schemas`);
  });

  it('answers every tool fingerprint as `toolFingerprint` does, cold and warm', () => {
    const want = tools.map((tool) => toolFingerprint(tool as { name: unknown }));
    const engine = createEngine();
    for (const round of ['cold', 'warm']) {
      const verdicts = tools.flatMap((tool) => engine.compileTools([tool]));
      assert.deepEqual(
        verdicts.map((v) => v.fingerprint),
        want,
        round,
      );
    }
    const fresh = createEngine();
    const frozen = servers.flatMap((list) => fresh.compileTools(list.map((tool) => deepFreeze(structuredClone(tool)))));
    assert.deepEqual(
      frozen.map((v) => v.fingerprint),
      want,
      'a list at a time, frozen',
    );
  });
});
