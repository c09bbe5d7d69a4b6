// A property name is data, not a keyword (issue 20, item 3): keys of `dependencies`, `dependentSchemas`,
// `dependentRequired`, `properties`, `patternProperties` and `$defs`/`definitions` named `$ref`, `$id`, `$anchor`,
// `type`, `constructor`… are names at every depth, and a `$ref` pointer into them resolves (`~0`, `~1` and
// percent-escapes included). Each schema is admitted and answers as the same schema with the key renamed to `x`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema } from '../../../src/engine/index.ts';
import type { ValidationOutcome } from '../../../src/protocol/index.ts';
import { accept, issuesOf } from '../../fixtures/engine/helpers.ts';
import { compileWithOracle } from '../../helpers/hyperjump-oracle.ts';
import type { Json } from '../../helpers/json-values.ts';

const uris = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
} as const;
type Dialect = keyof typeof uris;

const keys = [
  '$ref',
  '$id',
  'id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveRef',
  '$recursiveAnchor',
  '$schema',
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'properties',
  'items',
  'allOf',
  'not',
  'type',
  'required',
  'enum',
  'const',
  'format',
  'constructor',
  '__proto__',
  'toString',
  'a/b~c',
  '~1',
  '#',
  '%',
  '%25',
  '',
] as const;

/** An object with exactly these own members, `__proto__` included. */
const own = (...entries: [string, unknown][]): Record<string, Json> => Object.fromEntries(entries) as Record<string, Json>;
/** A name as a JSON Pointer token inside a URI fragment: RFC 6901 escapes, then `%` and `#` percent-encoded. */
const token = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1').replace(/%/g, '%25').replace(/#/g, '%23');
const escapeRegExp = (text: string): string => text.replace(/[$^\\.*+?()[\]{}|]/g, '\\$&');

interface Case {
  readonly label: string;
  readonly dialects: readonly Dialect[];
  /** Not compared with hyperjump, which follows 2019-09 and later, where `dependencies` is no keyword. */
  readonly noOracle?: true;
  /** The schema and its instances for a key name; every instance is [value, valid?]. */
  build(key: string, dialect: Dialect): { schema: Record<string, unknown>; instances: [Json, boolean][] };
}

const defsOf = (dialect: Dialect): string => (dialect === 'draft-07' ? 'definitions' : '$defs');
const dependentOf = (dialect: Dialect): string => (dialect === 'draft-07' ? 'dependencies' : 'dependentSchemas');

const cases: readonly Case[] = [
  {
    label: 'a schema-form "dependencies" key',
    dialects: ['draft-07'],
    build: (key) => ({
      schema: { dependencies: own([key, { required: ['b'] }]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
        [{}, true],
      ],
    }),
  },
  {
    label: 'an array-form "dependencies" key',
    dialects: ['draft-07'],
    build: (key) => ({
      schema: { dependencies: own([key, ['b']]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
      ],
    }),
  },
  {
    label: 'a "dependencies" key, still honoured after draft-07',
    dialects: ['2019-09', '2020-12'],
    noOracle: true,
    build: (key) => ({
      schema: { dependencies: own([key, { required: ['b'] }], ['y', ['b']]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
        [{ y: 1 }, false],
      ],
    }),
  },
  {
    label: 'a "dependentSchemas" key',
    dialects: ['2019-09', '2020-12'],
    build: (key) => ({
      schema: { dependentSchemas: own([key, { required: ['b'] }]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
        [{}, true],
      ],
    }),
  },
  {
    label: 'a "dependentRequired" key',
    dialects: ['2019-09', '2020-12'],
    build: (key) => ({
      schema: { dependentRequired: own([key, ['b']]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
      ],
    }),
  },
  {
    label: 'a $ref pointing into a dependent schema by its key',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key, dialect) => ({
      schema: {
        [dependentOf(dialect)]: own([key, { type: 'object', required: ['b'] }]),
        properties: { p: { $ref: `#/${dependentOf(dialect)}/${token(key)}` } },
      },
      instances: [
        [{ p: {} }, false],
        [{ p: { b: 1 } }, true],
      ],
    }),
  },
  {
    label: 'a $ref inside a dependent schema under the key',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key, dialect) => ({
      schema: { [dependentOf(dialect)]: own([key, { $ref: `#/${defsOf(dialect)}/d` }]), [defsOf(dialect)]: { d: { required: ['b'] } } },
      instances: [
        [own([key, 1]), false],
        [own([key, 1], ['b', 1]), true],
      ],
    }),
  },
  {
    label: 'a "properties" key that is also "required"',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key) => ({
      schema: { properties: own([key, { type: 'string' }]), required: [key] },
      instances: [
        [{}, false],
        [own([key, 1]), false],
        [own([key, 's']), true],
      ],
    }),
  },
  {
    label: 'a $ref pointing into "properties" by the key',
    dialects: ['draft-07', '2020-12'],
    build: (key) => ({
      schema: { properties: own([key, { type: 'string' }], ['p', { $ref: `#/properties/${token(key)}` }]) },
      instances: [
        [{ p: 1 }, false],
        [{ p: 's' }, true],
      ],
    }),
  },
  {
    label: 'a "patternProperties" key matching the name',
    dialects: ['draft-07', '2020-12'],
    build: (key) => ({
      schema: { patternProperties: own([`^${escapeRegExp(key)}$`, { type: 'string' }]) },
      instances: [
        [own([key, 1]), false],
        [own([key, 's']), true],
      ],
    }),
  },
  {
    label: 'a $defs/definitions key named by a $ref',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key, dialect) => ({
      schema: { [defsOf(dialect)]: own([key, { type: 'string' }]), properties: { p: { $ref: `#/${defsOf(dialect)}/${token(key)}` } } },
      instances: [
        [{ p: 1 }, false],
        [{ p: 's' }, true],
      ],
    }),
  },
  {
    label: 'the key at depth: a property of a dependent schema of a property',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key, dialect) => ({
      schema: { properties: { o: { [dependentOf(dialect)]: own([key, { properties: own([key, { type: 'string' }]) }]) } } },
      instances: [
        [{ o: own([key, 1]) }, false],
        [{ o: own([key, 's']) }, true],
      ],
    }),
  },
  {
    label: 'a $ref through the key twice: a dependent schema inside a definition',
    dialects: ['draft-07', '2019-09', '2020-12'],
    build: (key, dialect) => ({
      schema: {
        [defsOf(dialect)]: own([key, { [dependentOf(dialect)]: own([key, { type: 'object', required: ['b'] }]) }]),
        properties: { p: { $ref: `#/${defsOf(dialect)}/${token(key)}/${dependentOf(dialect)}/${token(key)}` } },
      },
      instances: [
        [{ p: {} }, false],
        [{ p: { b: 1 } }, true],
      ],
    }),
  },
];

/** The outcome with the name written back as `x`, so two outcomes can be compared whole. */
function shown(outcome: ValidationOutcome, key: string): unknown {
  if (outcome.status !== 'invalid') return outcome;
  const quoted = JSON.stringify(key);
  return {
    status: outcome.status,
    issues: outcome.issues.map((issue) => ({ keyword: issue.keyword, message: issue.message.split(quoted).join('"x"') })),
  };
}

describe('keyword-named keys are names, answered as the renamed schema answers', () => {
  for (const { label, dialects, build } of cases) {
    for (const dialect of dialects) {
      it(`admits ${label} in ${dialect}, for every key, with the answers of the key renamed to x`, () => {
        const plain = build('x', dialect);
        for (const key of keys) {
          const { schema, instances } = build(key, dialect);
          const result = compileSchema({ $schema: uris[dialect], ...schema });
          assert.ok(result.status === 'accepted', `${JSON.stringify(key)}: ${result.status === 'refused' ? result.refusal.message : ''}`);
          // The same schema and instances with the key renamed to `x`: built alike, in the same order.
          const renamed = accept({ $schema: uris[dialect], ...plain.schema });
          for (const [i, [instance, valid]] of instances.entries()) {
            const outcome = result.schema.validate(instance);
            const at = `${JSON.stringify(key)} with ${JSON.stringify(instance)}`;
            assert.equal(outcome.status, valid ? 'valid' : 'invalid', at);
            const [twin] = plain.instances[i] as [Json, boolean];
            assert.deepEqual(shown(outcome, key), shown(renamed.validate(twin), 'x'), at);
          }
        }
      });
    }
  }
});

describe('keyword-named keys against @hyperjump/json-schema', () => {
  for (const { label, dialects, build, noOracle } of cases) {
    for (const dialect of dialects) {
      if (dialect === '2019-09' || noOracle) continue;
      it(`agrees on ${label} in ${dialect}`, async () => {
        // hyperjump looks a pointer token up as written, without decoding it (RFC 6901 §6): `#` must be written
        // `%23` in a fragment, so it misses `#/properties/%23`. The engine decodes it, and is checked above.
        for (const key of keys.filter((name) => name !== '#')) {
          const { schema, instances } = build(key, dialect);
          const full = { $schema: uris[dialect], ...schema };
          const oracle = await compileWithOracle(full as never, dialect);
          assert.ok(oracle.ok, `${JSON.stringify(key)}: ${oracle.ok ? '' : oracle.error}`);
          const compiled = accept(full);
          for (const [instance] of instances) {
            assert.equal(
              compiled.validate(instance).status === 'valid',
              oracle.validate(instance),
              `${JSON.stringify(key)} with ${JSON.stringify(instance)}`,
            );
          }
        }
      });
    }
  }
});

describe('a property named "$ref" stays failing closed', () => {
  it('reports a missing required property "$ref" declared under properties (draft-07 and 2020-12)', () => {
    for (const uri of [uris['draft-07'], uris['2020-12']]) {
      const schema = { $schema: uri, properties: { $ref: { type: 'string' } }, required: ['$ref'] };
      assert.deepEqual(
        issuesOf(schema, {}).map((issue) => `${issue.path}: ${issue.message}`),
        ['$: missing required property "$ref"'],
      );
      assert.equal(accept(schema).validate({ $ref: 1 }).status, 'invalid');
      assert.equal(accept(schema).validate({ $ref: '#/x' }).status, 'valid');
    }
  });

  it('reports the missing dependency of a draft-07 "dependencies" key named "$ref"', () => {
    const schema = { $schema: uris['draft-07'], dependencies: { $ref: { required: ['b'] } } };
    assert.deepEqual(
      issuesOf(schema, { $ref: 1 }).map((issue) => `${issue.path}: ${issue.message}`),
      ['$: missing required property "b"'],
    );
  });

  it('reports a $ref to #/dependencies/type by the target’s own failure', () => {
    const schema = {
      $schema: uris['draft-07'],
      dependencies: { type: { type: 'object', required: ['b'] } },
      properties: { p: { $ref: '#/dependencies/type' } },
    };
    assert.deepEqual(
      issuesOf(schema, { p: {} }).map((issue) => `${issue.path}: ${issue.message}`),
      ['$.p: missing required property "b"'],
    );
  });

  it('resolves a percent-encoded pointer token (#/properties/%24ref), as RFC 6901 §6 decodes it', () => {
    const schema = { properties: { $ref: { type: 'string' }, p: { $ref: '#/properties/%24ref' } } };
    assert.equal(accept(schema).validate({ p: 1 }).status, 'invalid');
    assert.equal(accept(schema).validate({ p: 's' }).status, 'valid');
  });
});
