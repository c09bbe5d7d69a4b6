// The root-type gate (issue 21): where the root's `type` alone refuses an instance and no other root keyword applies
// to the instance's type, the adapter answers with that one leaf and walks nothing. Checked against cfworker's own
// full walk and against the engine's answer for the same schema with the gate defeated (an `allOf: [true]` that
// changes no verdict), on small cases and on every tool schema of the real corpus.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { dereference, type SchemaDraft, validate } from '@cfworker/json-schema';
import { walkCounts } from '../../../src/engine/adapters/cfworker/cfworker-adapter.ts';
import { refusedTypes, refusesAtRoot, rootTypeLeaf } from '../../../src/engine/adapters/cfworker/root-type-gate.ts';
import { compileSchema, type Issue } from '../../../src/engine/index.ts';

function compiled(schema: unknown) {
  const result = compileSchema(schema);
  assert.equal(result.status, 'accepted', JSON.stringify(schema));
  return result.status === 'accepted' ? result.schema : assert.fail('refused');
}

const issuesOf = (schema: ReturnType<typeof compiled>, instance: unknown): readonly Issue[] => {
  const verdict = schema.validate(instance);
  return verdict.status === 'invalid' ? verdict.issues : [];
};

/** Walks `run` costs. */
function walks(run: () => void): number {
  const before = walkCounts.short + walkCounts.full;
  run();
  return walkCounts.short + walkCounts.full - before;
}

/** The same schema with the gate defeated: `allOf: [true]` is not a key the gate passes, and changes no verdict. */
const defeated = (schema: Record<string, unknown>): Record<string, unknown> => ({
  ...schema,
  allOf: [...((schema.allOf as unknown[]) ?? []), true],
});

/** What the adapter does with the gate: the root type leaf, or `undefined` for "walk it". */
const rootTypeGate = (root: unknown) => ({
  answer: (instance: unknown) =>
    refusesAtRoot(refusedTypes(root), instance) ? [rootTypeLeaf(root as Record<string, unknown>)] : undefined,
});

const instances: readonly unknown[] = [null, true, 1, 1.5, -0, 'x', '', [], [1], {}, { a: 1 }];

describe('the root-type gate', () => {
  it('answers a refused type with the root type leaf', () => {
    const root = { type: 'object', properties: {} };
    const leaves = rootTypeGate(root).answer('not an object');
    assert.deepEqual(leaves, [{ schema: root, schemaPath: [], instancePath: [], keyword: 'type', types: ['object'] }]);
    assert.equal(rootTypeGate(root).answer({}), undefined);
  });

  it('counts an integral number as an integer, and only an integral one', () => {
    const gate = rootTypeGate({ type: ['integer', 'null'] });
    assert.equal(gate.answer(3), undefined);
    assert.equal(gate.answer(-0), undefined);
    assert.equal(gate.answer(null), undefined);
    assert.deepEqual(gate.answer(1.5)?.[0]?.types, ['integer', 'null']);
    assert.equal(rootTypeGate({ type: 'number' }).answer(2), undefined);
  });

  it('walks when a root keyword applies to the instance type', () => {
    const gate = rootTypeGate({ type: 'object', minLength: 3, maximum: 2 });
    assert.equal(gate.answer('ab'), undefined, 'minLength applies to a string');
    assert.equal(gate.answer(5), undefined, 'maximum applies to a number');
    assert.equal(gate.answer([])?.length, 1, 'neither applies to an array');
  });

  it('walks for keywords that apply to every type, unknown keys, and non-JSON values', () => {
    for (const key of [
      'const',
      'enum',
      'not',
      'anyOf',
      'allOf',
      'oneOf',
      'if',
      '$ref',
      '$dynamicRef',
      '$recursiveRef',
      'x-vendor',
      'then',
      'constructor',
      '__proto__',
    ]) {
      assert.equal(rootTypeGate({ type: 'object', [key]: {} }).answer('x'), undefined, key);
    }
    assert.equal(refusedTypes({ type: 'object', toString: 1 }), 0, 'a key named like a prototype member');
    assert.equal(rootTypeGate({}).answer('x'), undefined, 'no type');
    assert.equal(rootTypeGate({ type: 7 }).answer('x'), undefined, 'a type cfworker does not read as names');
    assert.equal(rootTypeGate(true).answer('x'), undefined);
    assert.equal(rootTypeGate({ type: 'object' }).answer(undefined), undefined, 'cfworker refuses undefined itself');
  });

  it('spares the walk and gives the engine the same issues', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], $defs: { b: { type: 'integer' } } };
    const gated = compiled(schema);
    let issues: readonly Issue[] = [];
    assert.equal(
      walks(() => (issues = issuesOf(gated, 'x'))),
      0,
    );
    assert.deepEqual(issues, [{ path: '$', keyword: 'type', message: 'got string, want object' }]);
    const walked = compiled(defeated(schema));
    let again: readonly Issue[] = [];
    assert.ok(walks(() => (again = issuesOf(walked, 'x'))) > 0);
    assert.deepEqual(again, issues);
    assert.ok(walks(() => assert.equal(gated.validate({}).status, 'invalid')) > 0, 'a matching type is walked');
  });

  it('leaves a walked root with two issues its two issues', () => {
    const schema = compiled({ type: 'object', minLength: 3 });
    assert.deepEqual(
      issuesOf(schema, 'x').map((issue) => issue.keyword),
      ['type', 'minLength'],
    );
  });
});

interface ServerFixture {
  readonly package: string;
  readonly result: { readonly tools: readonly { name: string; inputSchema?: unknown; outputSchema?: unknown }[] };
}

const dir = new URL('../../fixtures/real-world/servers/', import.meta.url);
const servers = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as ServerFixture);

const draftOf = (schema: Record<string, unknown>): SchemaDraft =>
  typeof schema.$schema === 'string' && /draft-0[67]/.test(schema.$schema)
    ? '7'
    : typeof schema.$schema === 'string' && /draft-04/.test(schema.$schema)
      ? '4'
      : '2020-12';

describe('the root-type gate over the real corpus', () => {
  it('answers only where cfworker writes the one root type unit, with the issues of a walk', () => {
    let schemas = 0;
    let answered = 0;
    for (const server of servers) {
      for (const tool of server.result.tools) {
        for (const raw of [tool.inputSchema, tool.outputSchema]) {
          if (typeof raw !== 'object' || raw === null) continue;
          const schema = raw as Record<string, unknown>;
          const result = compileSchema(structuredClone(schema));
          if (result.status !== 'accepted') continue;
          schemas++;
          const walked = compiled(defeated(structuredClone(schema)));
          for (const instance of instances) {
            const where = `${server.package} ${tool.name} ${JSON.stringify(instance)}`;
            const gateSays = rootTypeGate(schema).answer(instance);
            if (gateSays === undefined) continue;
            answered++;
            const copy = structuredClone(schema);
            const full = validate(instance, copy as never, draftOf(schema), dereference(copy as never), false);
            assert.deepEqual(
              full.errors.map((unit) => [unit.keyword, unit.keywordLocation, unit.instanceLocation]),
              [['type', '#/type', '#']],
              where,
            );
            let issues: readonly Issue[] = [];
            assert.equal(
              walks(() => (issues = issuesOf(result.schema, instance))),
              0,
              where,
            );
            assert.deepEqual(issues, issuesOf(walked, instance), where);
          }
        }
      }
    }
    // Floors, so the gate cannot quietly stop answering: most tool roots are a typed object with properties.
    assert.ok(schemas >= 269, `${schemas} schemas`);
    assert.ok(answered >= schemas * 8, `answered ${answered} of ${schemas * instances.length}`);
  });
});
