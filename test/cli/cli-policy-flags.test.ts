// The policy flags of lint and validate (issue 22): each Policy field as --kebab-case N, over the defaults.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { flagOf, policyFields, policyOf } from '../../src/cli/policy-flags.ts';
import { isPositiveInteger, positiveIntegerText } from '../../src/engine/numbers/index.ts';
import { defaultPolicy, resolvePolicy } from '../../src/engine/policy/index.ts';
import { createValidator } from '../../src/host/node.ts';
import { memoryIo } from '../helpers/memory-io.ts';

/** Inline validators that keep the options the CLI asks for (the policy). */
const inline = { createValidator: (options: object) => createValidator({ ...options, mode: 'inline' }) };

const tools = JSON.stringify({
  tools: [
    {
      name: 'search',
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'what to look for, in words' } } },
    },
    { name: 'ping', inputSchema: { type: 'object' } },
  ],
});

describe('schemaval lint policy flags', () => {
  it('refuses a schema too_large under --max-schema-bytes 100 that the default policy accepts', async () => {
    const before = memoryIo({ 't.json': tools });
    assert.equal(await main(['lint', 't.json'], before, inline), 0, before.out());
    const after = memoryIo({ 't.json': tools });
    assert.equal(await main(['lint', '--max-schema-bytes', '100', 't.json'], after, inline), 1);
    assert.match(after.out(), /^refused {3}search\n {10}too_large: /m);
    assert.match(after.out(), /^accepted {2}ping$/m);
    assert.match(after.out(), /^2 tools: 1 accepted, 1 refused$/m);
  });

  it('carries the flags into the worker the CLI starts by default', async () => {
    const io = memoryIo({ 't.json': tools });
    assert.equal(await main(['lint', '--json', '--max-json-depth=2', 't.json'], io), 1);
    const { tools: verdicts } = JSON.parse(io.out()) as { tools: { name: string; input: { refusal?: { code: string } } }[] };
    assert.equal(verdicts.find((v) => v.name === 'search')?.input.refusal?.code, 'too_deep');
  });

  it('takes a bound where resolvePolicy and the page do, by the one check (isPositiveInteger)', () => {
    // The page reads `?maxWork=` as Number(text) and keeps the default unless isPositiveInteger; the CLI reads
    // digits only, then the same check; resolvePolicy throws unless it. One table for the three.
    const table: readonly [string, boolean][] = [
      ['1', true],
      ['50000', true],
      ['9007199254740991', true],
      ['9007199254740992', false],
      ['0', false],
      ['1.5', false],
      ['1e3', false],
      ['ten', false],
      ['', false],
    ];
    for (const [text, cli] of table) {
      const number = Number(text);
      const taken = (() => {
        try {
          return policyOf({ 'max-work': text }, 'validate').maxWork === number;
        } catch {
          return false;
        }
      })();
      assert.equal(taken, cli, `--max-work=${text}`);
      // The edge's vars read text the same way (positiveIntegerText), so they take what the CLI takes.
      assert.equal(positiveIntegerText(text), cli ? number : undefined, text);
      // Where the CLI's digits-only reading agrees on the number, all three agree on the verdict.
      if (/^\d+$/.test(text)) {
        assert.equal(isPositiveInteger(number), cli, text);
        if (cli) assert.equal(resolvePolicy({ maxWork: number }).maxWork, number);
        else assert.throws(() => resolvePolicy({ maxWork: number }), /policy\.maxWork must be a positive integer/);
      }
    }
    // The page's reading of `1e3` is a number, and the check takes it: it differs in reading, not in the rule.
    assert.equal(isPositiveInteger(Number('1e3')), true);
    assert.equal(isPositiveInteger(Number('')), false);
  });

  it('says which flag has a value that is not a positive integer, exit 2', async () => {
    for (const [flag, value] of [
      ['--max-work', '0'],
      ['--max-work', '1.5'],
      ['--max-issues', 'ten'],
      ['--max-schema-bytes', '99999999999999999999'],
      ['--max-instance-depth', ''],
      ['--time-budget-ms', '+5'],
    ] as const) {
      const io = memoryIo({ 't.json': tools });
      assert.equal(await main(['lint', `${flag}=${value}`, 't.json'], io, inline), 2, `${flag}=${value}`);
      const said = `schemaval: ${flag} takes a positive integer, got ${JSON.stringify(value)}\n`;
      assert.ok(io.err().startsWith(said), io.err());
      assert.equal(io.out(), '');
    }
    const negative = memoryIo({ 't.json': tools });
    assert.equal(await main(['lint', '--max-work', '-3', 't.json'], negative, inline), 2);
    assert.equal(negative.err(), 'schemaval: option --max-work needs a value (see schemaval lint --help)\n');
  });

  it('lists every Policy field in --help as its kebab-case flag with its default', async () => {
    assert.deepEqual([...policyFields].sort(), Object.keys(defaultPolicy).sort());
    for (const command of ['lint', 'validate']) {
      const io = memoryIo({});
      assert.equal(await main([command, '--help'], io), 0);
      for (const field of policyFields) {
        assert.match(io.out(), new RegExp(`^ {2}--${flagOf(field)} N .*\\[${defaultPolicy[field]}\\]`, 'm'), `${command} ${field}`);
      }
    }
    assert.equal(flagOf('maxSchemaBytes'), 'max-schema-bytes');
  });
});

describe('schemaval validate policy flags', () => {
  const schema = '{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}}}';
  const files = { 's.json': schema, '-': '{"a":"x","b":"y","c":"z"}', 'deep.json': '{"a":[[[1]]]}' };

  it('cuts the issues at --max-issues and refuses a deep value at --max-instance-depth', async () => {
    const all = memoryIo(files);
    assert.equal(await main(['validate', '--schema', 's.json'], all, inline), 1);
    assert.equal(all.out().trimEnd().split('\n').length, 3);
    const cut = memoryIo(files);
    assert.equal(await main(['validate', '--json', '--max-issues', '1', '--schema', 's.json'], cut, inline), 1);
    const { issues } = JSON.parse(cut.out()) as { issues: { path: string }[] };
    assert.ok(issues.length < 3, cut.out());
    const deep = memoryIo(files);
    assert.equal(await main(['validate', '--schema', 's.json', '--instance', 'deep.json'], deep, inline), 1);
    assert.doesNotMatch(deep.out(), /^\$:/m);
    const shallow = memoryIo(files);
    const argv = ['validate', '--max-instance-depth', '2', '--schema', 's.json', '--instance', 'deep.json'];
    assert.equal(await main(argv, shallow, inline), 1);
    assert.match(shallow.out(), /^\$: /m);
  });

  it('refuses the schema file itself over --max-schema-bytes, exit 2', async () => {
    const io = memoryIo(files);
    assert.equal(await main(['validate', '--json', '--max-schema-bytes', '50', '--schema', 's.json'], io, inline), 2);
    assert.equal((JSON.parse(io.out()) as { refusal: { code: string } }).refusal.code, 'too_large');
  });

  it('says which flag is wrong', async () => {
    const io = memoryIo(files);
    assert.equal(await main(['validate', '--max-work', 'lots', '--schema', 's.json'], io, inline), 2);
    assert.match(io.err(), /^schemaval: --max-work takes a positive integer, got "lots"\nusage: schemaval validate/);
  });
});
