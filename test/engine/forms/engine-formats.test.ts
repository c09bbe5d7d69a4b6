// Formats (docs/architecture.md#schema-policy-and-refusal-codes): annotations for tool schemas; email, uri, date and date-time asserted for elicitation forms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../src/engine/index.ts';
import { accept, assertValid, issuesOf } from '../../fixtures/engine/helpers.ts';

const form = { formats: 'assert-form' } as const;

describe('tool mode (default)', () => {
  for (const [format, bad] of [
    ['email', 'not an email'],
    ['uri', 'not a uri'],
    ['date', '2024-13-45'],
    ['date-time', 'yesterday'],
    ['ipv4', '999.1.1.1'],
    ['uuid', 'nope'],
  ] as const) {
    it(`treats format ${format} as an annotation: ${JSON.stringify(bad)} is valid`, () => {
      assertValid({ type: 'string', format }, bad);
    });
  }

  it('still applies the other keywords beside a format', () => {
    assert.equal(issuesOf({ type: 'string', format: 'email', minLength: 5 }, 'a@b')[0]?.keyword, 'minLength');
  });
});

describe('form mode (elicitation)', () => {
  for (const [format, bad, good] of [
    ['email', 'not an email', 'ada@example.com'],
    ['uri', 'not a uri', 'https://example.com/a?b=c'],
    ['date', '2024-13-45', '2024-02-29'],
    ['date-time', 'yesterday', '2024-01-02T03:04:05Z'],
  ] as const) {
    it(`asserts format ${format}: rejects ${JSON.stringify(bad)}, accepts ${JSON.stringify(good)}`, () => {
      assert.deepEqual(issuesOf({ type: 'string', format }, bad, form), [
        { path: '$', keyword: 'format', message: `${JSON.stringify(bad)} is not a valid ${format}` },
      ]);
      assertValid({ type: 'string', format }, good, form);
    });
  }

  for (const format of ['int32', 'uint64', 'ipv4', 'uuid', 'hostname']) {
    it(`still ignores the non-form format ${format}`, () => {
      assertValid({ type: 'string', format }, 'definitely not valid', form);
    });
  }

  it('ignores a format on a value of another type', () => {
    assertValid({ format: 'email' }, 42, form);
  });

  it('reports a bad email inside a form at its property path', () => {
    const schema = { type: 'object', properties: { contact: { type: 'string', format: 'email' } } };
    assert.equal(issuesOf(schema, { contact: 'nope' }, form)[0]?.path, '$.contact');
  });

  it('compiles the same schema differently per mode', () => {
    const schema = { type: 'string', format: 'email' };
    assert.equal(accept(schema).validate('nope').status, 'valid');
    assert.equal(accept(schema, form).validate('nope').status, 'invalid');
  });
});

describe('engine modes', () => {
  it('asserts form formats in validateElicitation and not in validate', async () => {
    const engine = createEngine();
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email' } } };
    assert.deepEqual(await engine.validate(schema, { email: 'nope' }), { status: 'valid' });
    assert.deepEqual(await engine.validateElicitation(schema, { email: 'nope' }), {
      status: 'invalid',
      issues: [{ path: '$.email', keyword: 'format', message: '"nope" is not a valid email' }],
    });
    assert.deepEqual(await engine.validate(schema, { email: 'nope' }), { status: 'valid' });
  });

  it('treats formats as annotations in tool arguments', async () => {
    const engine = createEngine();
    const [verdict] = await engine.compileTools([
      { name: 'mail', inputSchema: { type: 'object', properties: { to: { type: 'string', format: 'email' } } } },
    ]);
    assert.deepEqual(engine.validateArguments(verdict?.fingerprint ?? '', { to: 'nope' }), { status: 'valid' });
  });
});

describe('form formats are strict (RFC 3339, RFC 3986)', () => {
  const cases: [string, string[], string[]][] = [
    [
      'uri',
      ['https://example.com/a?b=c#d', 'http://[::1]:8080/x', 'urn:isbn:0451450523', 'mailto:ada@example.com', 'http://u:p@h/%41'],
      ['http://example.com:port/', 'http://example.com/[x]', 'http://[::1::2]/', 'http://h/%4', '//example.com/a', 'http://a b/'],
    ],
    [
      'date-time',
      ['1998-12-31T23:59:60Z', '1998-12-31T15:59:60.123-08:00', '2024-01-02t03:04:05z', '2024-01-02T03:04:05.5+05:30'],
      [
        '2024-01-02 03:04:05Z',
        '1998-12-31T22:59:60Z',
        '2024-01-02T24:00:00Z',
        '2024-02-30T00:00:00Z',
        '2024-01-02T03:04:05+24:00',
        '2024-01-02T03:04:05',
      ],
    ],
    ['date', ['2024-02-29', '2000-02-29'], ['2023-02-29', '1900-02-29', '2024-1-01', '2024-04-31']],
    [
      'email',
      ['ada@example.com', 'te~st@example.com', 'a@[127.0.0.1]', '"a b"@example.com'],
      // Plain `email` is RFC 5321's ASCII mailbox; internationalised addresses are `idn-email`, which MCP forms lack.
      ['.a@b.com', 'a..b@c.com', 'a@-x.com', 'a@b@c', '@b.com', 'élise@exemple.fr'],
    ],
  ];
  for (const [format, good, bad] of cases) {
    it(`accepts strict ${format} values and rejects loose ones`, () => {
      for (const value of good) assertValid({ type: 'string', format }, value, form);
      for (const value of bad) {
        assert.deepEqual(issuesOf({ type: 'string', format }, value, form), [
          { path: '$', keyword: 'format', message: `${JSON.stringify(value)} is not a valid ${format}` },
        ]);
      }
    });
  }

  it('reports a 200 KB uri with a bad port as a format failure', () => {
    const long = `http://${'a'.repeat(200_000)}:x`;
    assert.equal(issuesOf({ type: 'string', format: 'uri' }, long, form)[0]?.keyword, 'format');
  });
});
