// Issue 20: the elicitation formats `uri` and `email` are exactly RFC 3986 `URI` and RFC 5321 `Mailbox`, ASCII only,
// in linear time. Regression tests for each reported false accept, then a seeded differential test against an
// independent checker written straight from the ABNF (test/helpers/rfc-format-oracle.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isFormEmail, isFormUri, isIpv6 } from '../../../src/engine/forms/form-formats.ts';
import { createEngine } from '../../../src/engine/index.ts';
import { emailCandidate, referenceEmail, referenceUri, seeded, uriCandidate } from '../../helpers/rfc-format-oracle.ts';

const engine = createEngine();
const form = (format: string) => ({ type: 'object', properties: { value: { type: 'string', format } } });

/** What `validateElicitation` answers for one value typed into a field of `format`. */
const answer = (format: string, value: string) => engine.validateElicitation(form(format), { value });

function assertRefused(format: 'uri' | 'email', value: string): void {
  const outcome = answer(format, value);
  if (JSON.stringify(value).length <= 60) {
    assert.deepEqual(outcome, {
      status: 'invalid',
      issues: [{ path: '$.value', keyword: 'format', message: `${JSON.stringify(value)} is not a valid ${format}` }],
    });
  } else {
    // A long value is shortened in the message; the rest of the issue is the same.
    assert.equal(outcome.status, 'invalid');
    const [issue, ...others] = outcome.status === 'invalid' ? outcome.issues : [];
    assert.deepEqual([issue?.path, issue?.keyword, others.length], ['$.value', 'format', 0]);
    assert.ok(issue?.message.endsWith(` is not a valid ${format}`), issue?.message);
  }
  const reference = format === 'uri' ? referenceUri : referenceEmail;
  assert.equal(reference(value), false, `the ABNF reference refuses ${JSON.stringify(value)} too`);
}

function assertAccepted(format: 'uri' | 'email', value: string): void {
  assert.deepEqual(answer(format, value), { status: 'valid' }, JSON.stringify(value));
  const reference = format === 'uri' ? referenceUri : referenceEmail;
  assert.equal(reference(value), true, `the ABNF reference accepts ${JSON.stringify(value)} too`);
}

describe('uri is RFC 3986 URI', () => {
  it('refuses an IPv4 part before "::" in an IPv6 literal: http://[1.2.3.4::]/', () => {
    assertRefused('uri', 'http://[1.2.3.4::]/');
    assertRefused('uri', 'http://[1:1.2.3.4::]/');
  });

  it('refuses an IPvFuture with nothing after its dot: http://[v1.]/', () => {
    assertRefused('uri', 'http://[v1.]/');
    assertRefused('uri', 'http://[v.x]/');
  });

  it('refuses a percent-escape inside an IPvFuture: http://[v1.%41]/', () => {
    assertRefused('uri', 'http://[v1.%41]/');
    assertRefused('uri', 'http://[v1.a%41]/');
  });

  it('refuses an RFC 6874 zone id (not part of RFC 3986): http://[fe80::1%25eth0]/', () => {
    assertRefused('uri', 'http://[fe80::1%25eth0]/');
    assertRefused('uri', 'http://[fe80::1%eth0]/');
  });

  it('refuses characters outside the ASCII grammar: IRI letters, NBSP, U+2028, lone surrogates, emoji', () => {
    for (const value of [
      'http://münchen.de/',
      'http://example.com/caf\u00e9',
      'http://exa\u00a0mple.com/',
      'http://example.com/\u2028',
      'http://example.com/\ud800',
      'http://example.com/\udfff',
      'http://example.com/🙂',
      'http\uff1a//example.com/',
      'http://example.com:\u0661/',
    ])
      assertRefused('uri', value);
  });

  it('refuses an escape that is not "%" and two hex digits, wherever it is', () => {
    for (const value of ['http://h/%4', 'http://h/%zz', 'http://h/?%', 'http://h/#%G0', 'http://u%4@h/', 'http://h%/'])
      assertRefused('uri', value);
  });

  it('accepts every IPv6address form, an embedded IPv4 at the end, and a well-formed IPvFuture', () => {
    for (const value of [
      'http://[1:2:3:4:5:6:7:8]/',
      'http://[::]/',
      'http://[::1]:8080/',
      'http://[1::]/',
      'http://[1:2:3:4:5:6:7::]/',
      'http://[::2:3:4:5:6:7:8]/',
      'http://[1:2:3:4:5:6:1.2.3.4]/',
      'http://[::ffff:192.0.2.1]/',
      'http://[1::255.255.255.255]/',
      'http://[v1.x]/',
      'http://[V1F.a:b!$]/',
      'urn:isbn:0451450523',
      'mailto:ada@example.com',
      'http://u:p@h/%41?q=%7E#f/?',
    ])
      assertAccepted('uri', value);
  });
});

describe('email is RFC 5321 Mailbox, ASCII only', () => {
  it('refuses an IPv4 part before "::" in an IPv6 address literal: a@[IPv6:1.2.3.4::]', () => {
    assertRefused('email', 'a@[IPv6:1.2.3.4::]');
  });

  it('refuses U+2028 in the domain', () => {
    assertRefused('email', 'a@exa\u2028mple.com');
    assertRefused('email', 'a@example.com\u2028');
  });

  it('refuses NBSP in the local part', () => {
    assertRefused('email', 'a\u00a0b@example.com');
    assertRefused('email', '"a\u00a0b"@example.com');
  });

  it('refuses lone surrogates', () => {
    assertRefused('email', 'a\ud800@example.com');
    assertRefused('email', 'a@exa\udfffmple.com');
  });

  it('refuses emoji', () => {
    assertRefused('email', '🙂@example.com');
    assertRefused('email', 'a@🙂.example');
  });

  it('refuses an internationalised (RFC 6531) address: JSON Schema keeps those for idn-email', () => {
    assertRefused('email', 'élise@exemple.fr');
    assertRefused('email', 'ada@exemple.fr\u0301');
    assertRefused('email', 'ada@bücher.de');
  });

  it('refuses a general address literal and an IPv6 literal whose "::" stands for one group (RFC 5321 IPv6-comp)', () => {
    assertRefused('email', 'a@[tag:text]');
    assertRefused('email', 'a@[IPv6:1:2:3:4:5:6:7::]');
    assertRefused('email', 'a@[IPv6:1:2:3:4:5::1.2.3.4]');
    assertRefused('email', 'a@[IPv6:fe80::1%25eth0]');
  });

  it('accepts quoted local parts, address literals and the RFC 5321 Snum (0–255, leading zeros allowed)', () => {
    for (const value of [
      'ada@example.com',
      '"a b"@example.com',
      '"a@b"@example.com',
      '"a\\"b\\\\"@example.com',
      '""@example.com',
      'a@[127.0.0.1]',
      'a@[001.002.003.004]',
      'a@[IPv6:2001:db8::1]',
      'a@[ipv6:::ffff:192.0.2.1]',
      'a@[IPv6:1:2:3:4:5:6:7:8]',
      'a@[IPv6:1:2:3:4:5:6:1.2.3.4]',
      'a@[IPv6:1:2:3:4:5:6::]',
    ])
      assertAccepted('email', value);
  });

  it('keeps the RFC 5321 sizes: 64 characters of local part, 63 per label, 254 in all', () => {
    assertAccepted('email', `${'a'.repeat(64)}@example.com`);
    assertRefused('email', `${'a'.repeat(65)}@example.com`);
    assertRefused('email', `a@${'b'.repeat(64)}.com`);
    assertRefused('email', `a@${'b.'.repeat(126)}cc`);
  });
});

describe('form formats stay linear on 100 KB near misses', () => {
  it('refuses each 100 KB near miss (a backtracking checker would not end)', () => {
    const size = 100_000;
    const values: [(text: string) => boolean, string][] = [
      [isFormUri, `http://[${'1:'.repeat(size / 2)}]/`],
      [isFormUri, `http://[${'::'.repeat(size / 2)}]/`],
      [isFormUri, `http://[v1.${'%41'.repeat(size / 3)}]/`],
      [isFormUri, `a:${'%4'.repeat(size / 2)}`],
      [isFormUri, `http://${'@'.repeat(size)}/`],
      [isFormUri, `a:${'/'.repeat(size)}\u2028`],
      [isFormEmail, `${'a.'.repeat(size / 2)}@b`],
      [isFormEmail, `"${'\\'.repeat(size)}"@b`],
    ];
    // Each checker scans once over lookup tables (no backtracking), so these end; time is the benchmark's to measure.
    for (const [check, value] of values) assert.equal(check(value), false);
  });
});

/** Runs `count` generated strings through both checkers and returns the disagreements and how many were valid. */
function differential(
  generate: (random: () => number) => string,
  engineCheck: (text: string) => boolean,
  reference: (text: string) => boolean,
  seed: number,
  count: number,
) {
  const random = seeded(seed);
  const disagreements: string[] = [];
  let accepted = 0;
  for (let i = 0; i < count; i++) {
    const value = generate(random);
    const expected = reference(value);
    if (expected) accepted++;
    if (engineCheck(value) !== expected && disagreements.length < 10) disagreements.push(`${JSON.stringify(value)}: want ${expected}`);
  }
  return { disagreements, accepted };
}

describe('differential: the engine and an ABNF reference answer the same on generated near misses', () => {
  const count = 4000;

  it(`agrees on ${count} generated URIs (IPv6 with "::" anywhere, IPv4 parts, zone ids, IPvFuture, escapes, look-alikes)`, () => {
    const { disagreements, accepted } = differential(uriCandidate, isFormUri, referenceUri, 3986, count);
    assert.deepEqual(disagreements, []);
    assert.ok(accepted > count / 20 && accepted < count - count / 20, `a mix of valid and invalid (${accepted} valid)`);
  });

  it(`agrees on ${count} generated emails (dot-strings, quoted strings, LDH labels, address literals, look-alikes)`, () => {
    const { disagreements, accepted } = differential(emailCandidate, isFormEmail, referenceEmail, 5321, count);
    assert.deepEqual(disagreements, []);
    assert.ok(accepted > count / 20 && accepted < count - count / 20, `a mix of valid and invalid (${accepted} valid)`);
  });
});

describe('the JSON Schema Test Suite agrees (draft 2020-12, optional/format)', () => {
  const suite = (name: string): { data: unknown; valid: boolean; description: string }[] =>
    JSON.parse(
      readFileSync(new URL(`../../fixtures/json-schema-test-suite/draft2020-12/optional/format/${name}.json`, import.meta.url), 'utf8'),
    ).flatMap((group: { tests: unknown[] }) => group.tests);
  const checks: [string, (text: string) => boolean, (text: string) => boolean][] = [
    ['uri', isFormUri, referenceUri],
    ['email', isFormEmail, referenceEmail],
    ['ipv6', isIpv6, (text) => referenceUri(`http://[${text}]/`)],
  ];
  for (const [name, engineCheck, reference] of checks) {
    it(`answers every string test of ${name}.json as the suite does, and so does the reference`, () => {
      const wrong = suite(name)
        .filter((test) => typeof test.data === 'string')
        .filter((test) => engineCheck(test.data as string) !== test.valid || reference(test.data as string) !== test.valid)
        .map((test) => test.description);
      assert.deepEqual(wrong, []);
    });
  }
});
