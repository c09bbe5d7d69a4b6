// `schemaval lint --format sarif|github|junit`: the reports a CI system annotates. The SARIF log is validated
// against the SARIF 2.1.0 schema (test/fixtures/sarif, draft-04) with @hyperjump/json-schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { registerSchema, validate } from '@hyperjump/json-schema/draft-04';
import { main } from '../../src/cli/main.ts';
import { createValidator } from '../../src/host/node.ts';
import { createUpstream, type Upstream } from '../helpers/http-upstream.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const example = readFileSync(new URL('../../examples/tools.json', import.meta.url), 'utf8');
// rtm.5's `language` pattern has a stray `]`, a syntax error under the `u` flag hyperjump compiles patterns with;
// escaping it keeps what the pattern means without `u` (a literal `]`). The output holds no `language` anyway.
const sarifText = readFileSync(new URL('../fixtures/sarif/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8');
const strayBracket = '"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"';
assert.ok(sarifText.includes(strayBracket));
const sarifSchema = JSON.parse(sarifText.replaceAll(strayBracket, '"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\\\]?$"'));
const sarifUri = 'https://schemaval.test/sarif-2.1.0-rtm.5.json';
const inline = { createValidator: (options: object) => createValidator({ ...options, mode: 'inline' }) };

registerSchema(sarifSchema, sarifUri, 'http://json-schema.org/draft-04/schema#');

async function lint(argv: string[], files: Record<string, string> = { 'examples/tools.json': example }) {
  const io = memoryIo(files);
  const code = await main(['lint', ...argv], io, inline);
  return { code, out: io.out(), err: io.err() };
}

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
    logicalLocations: { name: string }[];
  }[];
}

async function assertValidSarif(text: string): Promise<SarifResult[]> {
  const log = JSON.parse(text);
  const output = await validate(sarifUri, log, 'BASIC');
  assert.equal(output.valid, true, JSON.stringify((output as { errors?: unknown[] }).errors?.slice(0, 5), null, 2));
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs.length, 1);
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'schemaval');
  const ruleIds = run.tool.driver.rules.map((r: { id: string }) => r.id);
  for (const result of run.results as SarifResult[]) assert.ok(ruleIds.includes(result.ruleId), result.ruleId);
  return run.results;
}

/** The 1-based line of `"name": "NAME"` in the example file. */
const lineOfName = (name: string): number => example.slice(0, example.indexOf(`"name": "${name}"`)).split('\n').length;

describe('schemaval lint --format sarif', () => {
  it('has a schema that tells a SARIF log from a broken one', async () => {
    const log = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' } }] }] };
    assert.equal((await validate(sarifUri, log)).valid, true);
    assert.equal((await validate(sarifUri, { ...log, version: '2.0.0' })).valid, false);
    const noLocation = { ...log, runs: [{ ...log.runs[0], results: [{ message: { text: 'm' }, locations: [{ region: 1 }] }] }] };
    assert.equal((await validate(sarifUri, noLocation)).valid, false);
  });

  it('gives one error result per refused tool (ruleId: its refusal code) at the tool in the file, valid SARIF 2.1.0', async () => {
    const { code, out, err } = await lint(['--format', 'sarif', 'examples/tools.json']);
    assert.equal(code, 1, err);
    const results = await assertValidSarif(out);
    const errors = results.filter((r) => r.level === 'error');
    assert.deepEqual(
      errors.map((r) => [r.locations[0]?.logicalLocations[0]?.name, r.ruleId]),
      [
        ['search_issues', 'invalid_tool'],
        ['fetch_profile', 'remote_ref'],
        ['expand_everything', 'too_many_subschemas'],
      ],
    );
    const remote = errors[1] as SarifResult;
    assert.match(remote.message.text, /^tool "fetch_profile": inputSchema: #\/properties\/profile\/\$ref: /);
    assert.deepEqual(remote.locations[0]?.physicalLocation, {
      artifactLocation: { uri: 'examples/tools.json' },
      region: { startLine: lineOfName('fetch_profile') },
    });
    const warnings = results.filter((r) => r.level === 'warning');
    assert.deepEqual(
      warnings.map((r) => r.ruleId),
      ['draft3_required'],
    );
  });

  it('gives an empty, valid result list when every tool is accepted, exit 0', async () => {
    const { code, out } = await lint(['--format=sarif', 't.json'], { 't.json': '[{"name":"a","inputSchema":{"type":"object"}}]' });
    assert.equal(code, 0);
    assert.deepEqual(await assertValidSarif(out), []);
  });

  it('names both refusals when both schemas of a tool are refused, in one result', async () => {
    const tools = JSON.stringify([
      {
        name: 'both',
        inputSchema: { type: 'object', $ref: 'https://example.com/a' },
        outputSchema: { type: 'object', $ref: 'https://example.com/b' },
      },
    ]);
    const { out } = await lint(['--format', 'sarif', 'odd dir/t#1.json'], { 'odd dir/t#1.json': tools });
    const [result, ...rest] = await assertValidSarif(out);
    assert.equal(rest.length, 0);
    assert.match(result?.message.text ?? '', /inputSchema: .*; also remote_ref: outputSchema: /);
    assert.equal(result?.locations[0]?.physicalLocation.artifactLocation.uri, 'odd%20dir/t%231.json');
  });

  describe('of a server', () => {
    let upstream: Upstream;
    let url: string;
    before(async () => {
      upstream = createUpstream({ json: true });
      url = await upstream.listen();
    });
    after(() => upstream.close());

    it('locates the results at the server URL', async () => {
      const { code, out, err } = await lint(['--format', 'sarif', '--url', url]);
      assert.equal(code, 1, err);
      const results = await assertValidSarif(out);
      assert.ok(results.length > 0);
      for (const result of results) assert.equal(result.locations[0]?.physicalLocation.artifactLocation.uri, new URL(url).href);
    });
  });
});

describe('schemaval lint --format github', () => {
  it('prints an ::error per refused tool and a ::warning per warning, with file and line, then the summary', async () => {
    const { code, out } = await lint(['--format', 'github', 'examples/tools.json']);
    assert.equal(code, 1);
    const lines = out.trimEnd().split('\n');
    const commands = lines.filter((line) => line.startsWith('::'));
    assert.equal(commands.filter((line) => line.startsWith('::error ')).length, 3);
    assert.equal(commands.filter((line) => line.startsWith('::warning ')).length, 1);
    assert.ok(
      commands.includes(
        `::error file=examples/tools.json,line=${lineOfName('expand_everything')},title=schemaval too_many_subschemas%3A expand_everything::` +
          'tool "expand_everything": inputSchema: #/$defs/d12: expands to more than 10000 subschemas applied to one value',
      ),
      out,
    );
    assert.equal(lines.at(-1), '6 tools: 3 accepted, 3 refused, 1 warning');
  });

  it('escapes what would end a workflow command early', async () => {
    const tools = JSON.stringify([{ name: 'a,b:c%\nd', inputSchema: { type: 'object', $ref: 'https://x.test/%' } }]);
    const { out } = await lint(['--format', 'github', '-'], { '-': tools });
    const [line] = out.split('\n');
    assert.match(line ?? '', /^::error title=schemaval remote_ref%3A a%2Cb%3Ac%25%0Ad::tool "a,b:c%25\\nd": /);
  });
});

describe('schemaval lint --format junit', () => {
  it('gives one testcase per tool and a failure per refused one', async () => {
    const { code, out } = await lint(['--format', 'junit', 'examples/tools.json']);
    assert.equal(code, 1);
    assert.match(
      out,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="schemaval lint examples\/tools.json" tests="6" failures="3"/,
    );
    assert.equal(out.match(/<testcase /g)?.length, 6);
    assert.equal(out.match(/<failure /g)?.length, 3);
    assert.match(out, /<testcase name="get_weather" classname="schemaval.lint"\/>/);
    assert.match(
      out,
      /<testcase name="fetch_profile" classname="schemaval.lint">\n {6}<failure type="remote_ref" message="tool &quot;fetch_profile&quot;: /,
    );
    assert.match(out, /<system-out>warning draft3_required: tool &quot;legacy_lookup&quot;: /);
  });

  it('keeps names XML cannot hold well-formed', async () => {
    const tools = JSON.stringify([{ name: 'a<&>\u0001', inputSchema: { type: 'object' } }]);
    const { out } = await lint(['--format', 'junit', '-'], { '-': tools });
    assert.match(out, /<testcase name="a&lt;&amp;&gt;\\u0001" classname/);
  });
});

describe('schemaval lint --format', () => {
  it('takes json as --json, with errors as JSON too, and refuses an unknown format or --json with another', async () => {
    const json = await lint(['--format', 'json', 'examples/tools.json']);
    const alias = await lint(['--json', 'examples/tools.json']);
    assert.equal(json.out, alias.out);
    const missing = await lint(['--format', 'json', 'nope.json']);
    assert.deepEqual(JSON.parse(missing.out), { error: { code: 'file_not_found', message: 'cannot read "nope.json": no such file' } });
    const unknown = await lint(['--format', 'xml', 'examples/tools.json']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /^schemaval: --format takes one of text, json, sarif, github, junit, got "xml"\n/);
    const both = await lint(['--json', '--format', 'sarif', 'examples/tools.json']);
    assert.equal(both.code, 2);
    assert.match(both.out, /--json is --format json; it does not go with --format sarif/);
  });
});
