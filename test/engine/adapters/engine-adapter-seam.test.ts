// The adapter seam points one way (issue #19): the core is handed an adapter, cfworker's quirks are refused by
// cfworker's adapter, its id is spelled once, and importing it changes nothing in the library.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { format } from '@cfworker/json-schema';
import { createCfworkerAdapter } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
import { compileSchema as compileWithAdapter } from '../../../src/engine/core/index.ts';
import { formFormatCheckers } from '../../../src/engine/forms/form-formats.ts';
import { cfworkerAdapterId, compileSchema, createEngine, type SchemaValidatorAdapter } from '../../../src/engine/index.ts';

const formNames = Object.keys(formFormatCheckers);

describe('the cfworker adapter', () => {
  it("adds the form formats to cfworker's table when created, not when imported, and only once", () => {
    // Nothing in this file has created an adapter yet (the default engine creates its own lazily).
    for (const name of formNames) assert.equal(Object.hasOwn(format, name), false, `${name} before any adapter`);
    createCfworkerAdapter();
    const installed = formNames.map((name) => format[name as keyof typeof format]);
    createCfworkerAdapter();
    assert.deepEqual(
      formNames.map((name) => format[name as keyof typeof format]),
      installed,
    );
    for (const name of formNames) assert.equal(typeof format[name as keyof typeof format], 'function');
  });

  it('gives the engine its id', () => {
    assert.equal(createCfworkerAdapter().id, cfworkerAdapterId);
    assert.equal(createEngine().adapterId, cfworkerAdapterId);
  });

  it("builds cfworker's index of subschemas only for a schema that holds a reference", () => {
    // The adapter's input, seen through a wrapper: cfworker's indexer stamps each subschema it files.
    const inner = createCfworkerAdapter();
    const seen: { referenced: boolean | undefined; stamped: boolean }[] = [];
    const watching: SchemaValidatorAdapter = {
      id: inner.id,
      compile: (input) => {
        const result = inner.compile(input);
        const root = input.schema as { properties?: Record<string, object> };
        const leaf = root.properties?.name ?? {};
        seen.push({ referenced: input.referenced, stamped: Object.hasOwn(leaf, '__absolute_uri__') });
        return result;
      },
    };
    const plain = { $id: 'https://example.com/tool', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const withRef = { ...plain, properties: { ...plain.properties, again: { $ref: '#/properties/name' } } };
    const engine = createEngine({ adapter: watching });
    // [instance, verdict without the reference, verdict with it]
    const checks: [unknown, string, string][] = [
      [{ name: 'x' }, 'valid', 'valid'],
      [{ name: 1 }, 'invalid', 'invalid'],
      [{}, 'invalid', 'invalid'],
      [{ name: 'x', again: 2 }, 'valid', 'invalid'],
    ];
    for (const [instance, withoutIt, withIt] of checks) {
      assert.equal(engine.validate(plain, instance).status, withoutIt, JSON.stringify(instance));
      assert.equal(engine.validate(withRef, instance).status, withIt, JSON.stringify(instance));
    }
    assert.deepEqual(seen, [
      { referenced: false, stamped: false },
      { referenced: true, stamped: true },
    ]);
  });
});

describe('the core takes an adapter', () => {
  const accepting: SchemaValidatorAdapter = { id: 'test', compile: () => ({ status: 'accepted', compiled: { validate: () => [] } }) };

  it("leaves cfworker's own refusals to cfworker's adapter", () => {
    const dynamic = { $dynamicAnchor: 'node', properties: { next: { $dynamicRef: '#node' } } };
    const refused = compileSchema(dynamic);
    assert.equal(refused.status === 'refused' && refused.refusal.code, 'unsupported_keyword');
    assert.equal(compileWithAdapter(dynamic, { adapter: accepting }).status, 'accepted');
    const toDynamicAnchor = { $defs: { a: { $dynamicAnchor: 'x', type: 'string' } }, $ref: '#x' };
    const named = compileSchema(toDynamicAnchor);
    assert.deepEqual(named.status === 'refused' && named.refusal, {
      code: 'unsupported_keyword',
      message: '#/$ref: "#x" names a $dynamicAnchor, which the validator does not support',
    });
    assert.equal(compileWithAdapter(toDynamicAnchor, { adapter: accepting }).status, 'accepted', 'the core resolves it statically');
    const afterRef = { $defs: { a: { properties: { x: true } } }, $ref: '#/$defs/a', allOf: [{ unevaluatedProperties: false }] };
    const cfworker = compileSchema(afterRef);
    assert.equal(cfworker.status === 'refused' && cfworker.refusal.code, 'unsupported_keyword');
    assert.equal(compileWithAdapter(afterRef, { adapter: accepting }).status, 'accepted');
  });

  it('joins an adapter check to the policy pass, after the policy', () => {
    const picky: SchemaValidatorAdapter = {
      ...accepting,
      check: () => ({ code: 'unsupported_keyword', message: 'not for this library' }),
    };
    assert.deepEqual(compileWithAdapter({ type: 'string' }, { adapter: picky }), {
      status: 'refused',
      refusal: { code: 'unsupported_keyword', message: 'not for this library' },
    });
    // The policy's own refusal comes first.
    const remote = compileWithAdapter({ $ref: 'https://example.com/s.json' }, { adapter: picky });
    assert.equal(remote.status === 'refused' && remote.refusal.code, 'remote_ref');
  });
});
