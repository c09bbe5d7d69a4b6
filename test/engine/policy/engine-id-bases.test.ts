// Relative `$id`s and `$ref`s under a non-hierarchical base (`urn:…`, `tag:…`) are resolved by RFC 3986 §5.2, as
// @hyperjump/json-schema resolves them, or refused with a message that says why (issue 20, item 3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema } from '../../../src/engine/index.ts';
import { parseUri } from '../../../src/engine/schema/schema-uri.ts';
import { accept, assertValid, issuesOf, refuse } from '../../fixtures/engine/helpers.ts';
import { compileWithOracle } from '../../helpers/hyperjump-oracle.ts';
import type { Json } from '../../helpers/json-values.ts';

const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
const draft07 = 'http://json-schema.org/draft-07/schema#';
const draft04 = 'http://json-schema.org/draft-04/schema#';

describe('RFC 3986 §5.2 against an opaque base', () => {
  for (const [reference, base, expected] of [
    // merge(): no "/" in the base path, so the merged path is the reference path itself.
    ['foo', 'urn:example:root', 'urn:foo'],
    ['./foo', 'urn:example:root', 'urn:foo'],
    // With a "/" in the base path (RFC 8141 §2.2 allows one in the NSS), everything after the last one is replaced.
    ['foo', 'urn:example:1/406/47452/2', 'urn:example:1/406/47452/foo'],
    ['../foo', 'urn:example:1/406/47452/2', 'urn:example:1/406/foo'],
    ['foo', 'tag:example.com,2024:schemas/root', 'tag:example.com,2024:schemas/foo'],
    ['..', 'urn:a/b/c', 'urn:a/'],
    ['/abs', 'urn:a:b', 'urn:/abs'],
    ['//host/p', 'urn:a:b', 'urn://host/p'],
    // An empty path keeps the base's path, and its query unless the reference has one.
    ['', 'urn:a:b?q', 'urn:a:b?q'],
    ['?z', 'urn:a:b?q', 'urn:a:b?z'],
    // Node's URL parser returns urn:a:b/foo#x here; the RFC does not.
    ['foo#x', 'urn:a:b', 'urn:foo#x'],
    ['foo#/$defs/b', 'urn:example:root', 'urn:foo#/$defs/b'],
    // What WHATWG URL already resolves as the RFC does: a fragment, a reference with a scheme of its own.
    ['#frag', 'urn:a:b', 'urn:a:b#frag'],
    ['https://x/y', 'urn:a:b', 'https://x/y'],
    ['urn:other:z', 'tag:example.com,2024:root', 'urn:other:z'],
    // A hierarchical base is WHATWG URL's, as before.
    ['foo', 'tag://example.com/a/b', 'tag://example.com/a/foo'],
    ['foo', 'https://example.com/a/b.json', 'https://example.com/a/foo'],
  ] as const) {
    it(`resolves ${JSON.stringify(reference)} against ${base} to ${expected}`, () => {
      assert.equal(parseUri(reference, base)?.href, expected);
    });
  }

  it('gives nothing for a path that would start with "//" without an authority', () => {
    assert.equal(parseUri('/.//x', 'urn:a:b'), undefined);
  });
});

/** Schemas whose identifiers resolve against an opaque base, each with instances and their expected verdicts. */
const cases: readonly {
  readonly label: string;
  readonly schema: Record<string, unknown>;
  readonly instances: readonly [Json, boolean][];
}[] = [
  {
    label: 'a relative $id under a urn: base, referenced as written',
    schema: { $schema: draft2020, $id: 'urn:example:root', $defs: { a: { $id: 'foo', type: 'string' } }, $ref: 'foo' },
    instances: [
      ['x', true],
      [1, false],
    ],
  },
  {
    label: 'a relative $id under a urn: base, referenced by its resolved URI urn:foo',
    schema: { $schema: draft2020, $id: 'urn:example:root', $defs: { a: { $id: 'foo', type: 'string' } }, $ref: 'urn:foo' },
    instances: [
      ['x', true],
      [1, false],
    ],
  },
  {
    label: 'a relative $id under a urn: base whose NSS has a "/"',
    schema: { $schema: draft2020, $id: 'urn:example:1/2', $defs: { a: { $id: 'foo', type: 'string' } }, $ref: 'urn:example:1/foo' },
    instances: [
      ['x', true],
      [1, false],
    ],
  },
  {
    label: 'a relative $id under a tag: base, referenced from a property',
    schema: {
      $schema: draft2020,
      $id: 'tag:example.com,2024:schemas/root',
      $defs: { item: { $id: 'item', type: 'string' } },
      properties: { p: { $ref: 'item' } },
    },
    instances: [
      [{ p: 'x' }, true],
      [{ p: 1 }, false],
      [{}, true],
    ],
  },
  {
    label: 'a relative reference with a pointer fragment under a urn: base',
    schema: {
      $schema: draft2020,
      $id: 'urn:example:root',
      $defs: { a: { $id: 'foo', $defs: { b: { type: 'string' } } } },
      $ref: 'foo#/$defs/b',
    },
    instances: [
      ['x', true],
      [1, false],
    ],
  },
  {
    label: 'a relative reference with an anchor fragment under a urn: base',
    schema: { $schema: draft2020, $id: 'urn:example:root', $defs: { a: { $id: 'foo', $anchor: 'x', type: 'string' } }, $ref: 'foo#x' },
    instances: [
      ['x', true],
      [1, false],
    ],
  },
  {
    label: 'references inside an embedded urn: resource, against its own base',
    schema: {
      $schema: draft2020,
      $id: 'urn:example:root',
      $defs: { a: { $id: 'urn:example:a/b', $defs: { c: { $id: 'c', type: 'integer' } }, $ref: 'c' } },
      $ref: 'urn:example:a/b',
    },
    instances: [
      [1, true],
      ['x', false],
    ],
  },
  {
    label: 'a relative $id under a urn: base in draft-07',
    schema: {
      $schema: draft07,
      $id: 'urn:example:root',
      definitions: { a: { $id: 'foo', type: 'string' } },
      properties: { p: { $ref: 'foo' } },
    },
    instances: [
      [{ p: 'x' }, true],
      [{ p: 1 }, false],
    ],
  },
];

describe('relative identifiers under urn: and tag: bases', () => {
  for (const { label, schema, instances } of cases) {
    it(`admits ${label} and answers as @hyperjump/json-schema does`, async () => {
      const compiled = accept(schema);
      const oracle = await compileWithOracle(schema as never, schema.$schema === draft07 ? 'draft-07' : '2020-12');
      assert.ok(oracle.ok, oracle.ok ? '' : oracle.error);
      for (const [instance, valid] of instances) {
        assert.equal(compiled.validate(instance).status, valid ? 'valid' : 'invalid', JSON.stringify(instance));
        assert.equal(oracle.validate(instance), valid, `oracle: ${JSON.stringify(instance)}`);
      }
    });
  }

  it('admits a relative draft-04 id under a urn: base', () => {
    const schema = {
      $schema: draft04,
      id: 'urn:example:root',
      definitions: { a: { id: 'foo', type: 'string' } },
      properties: { p: { $ref: 'foo' } },
    };
    assertValid(schema, { p: 'x' });
    assert.deepEqual(
      issuesOf(schema, { p: 1 }).map((issue) => issue.path),
      ['$.p'],
    );
  });

  it('leaves the caller’s schema as written (the engine’s copy holds the resolved form)', () => {
    const schema = { $id: 'urn:example:root', $defs: { a: { $id: 'foo', type: 'string' } }, $ref: 'foo' };
    const before = structuredClone(schema);
    accept(schema);
    assert.deepEqual(schema, before);
  });

  it('refuses two identifiers that resolve to the same URI, quoting the one written', () => {
    const refusal = refuse({ $id: 'urn:example:root', $defs: { a: { $id: 'foo' }, b: { $id: 'urn:foo' } } });
    assert.equal(refusal.code, 'invalid_schema');
    assert.equal(refusal.message, '#/$defs/b/$id: duplicate $id "urn:foo"');
  });

  it('refuses a relative $ref under a urn: base that names no resource of the document as remote_ref', () => {
    const refusal = refuse({ $id: 'urn:example:root', $ref: 'foo' });
    assert.equal(refusal.code, 'remote_ref');
    assert.match(refusal.message, /^#\/\$ref: "foo" points outside this schema/);
  });

  it('refuses a relative $id the RFC cannot resolve against a urn: base, saying why', () => {
    const refusal = refuse({ $id: 'urn:a:b', $defs: { x: { $id: '/.//x' } } });
    assert.equal(refusal.code, 'invalid_schema');
    assert.equal(
      refusal.message,
      '#/$defs/x/$id: "/.//x" cannot be resolved against the non-hierarchical base urn:a:b (RFC 3986 §5.2 gives a path starting "//" without an authority)',
    );
  });

  it('refuses such a $ref the same way', () => {
    const refusal = refuse({ $id: 'urn:a:b', $ref: '/.//x' });
    assert.equal(refusal.code, 'invalid_schema');
    assert.match(refusal.message, /^#\/\$ref: "\/\.\/\/x" cannot be resolved against the non-hierarchical base urn:a:b/);
  });

  it('still calls a malformed URI "not a URI reference", whatever the base', () => {
    for (const root of ['urn:a:b', 'https://example.com/s.json']) {
      const refusal = refuse({ $id: root, $defs: { x: { $id: 'http://[bad' } } });
      assert.equal(refusal.message, '#/$defs/x/$id: "http://[bad" is not a URI reference');
    }
  });

  it('keeps the suite’s fragment-only references under a urn: base', () => {
    const result = compileSchema({
      $id: 'urn:uuid:deadbeef-1234-00ff-ff00-4321feebdaed',
      properties: { foo: { $ref: '#/$defs/bar' } },
      $defs: { bar: { type: 'string' } },
    });
    assert.equal(result.status, 'accepted');
    if (result.status === 'accepted') assert.equal(result.schema.validate({ foo: 1 }).status, 'invalid');
  });
});
