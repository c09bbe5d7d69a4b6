// The real-world corpus (issue 20, item 5): the raw tools/list results of MCP server packages on npm, gathered by
// scripts/gather-corpus.mjs into test/fixtures/real-world/servers/. The corpus must be admitted whole: every tool
// accepted, or refused for a reason reviewed in the table below.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createEngine, toolRefusal } from '../../../src/engine/index.ts';

interface ServerFixture {
  readonly package: string;
  readonly version: string;
  readonly license: string;
  readonly gatheredAt: string;
  readonly command: string;
  readonly result: { readonly tools: readonly Record<string, unknown>[] };
}

const dir = new URL('../../fixtures/real-world/servers/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const servers = files.map((f): [string, ServerFixture] => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8'))]);
const licences = readFileSync(new URL('LICENSES.md', dir), 'utf8');

/** Floors: the corpus cannot silently shrink. Raise them when it grows. */
const MIN_SERVERS = 25;
const MIN_TOOLS = 269;

/**
 * Reviewed refusals: `package tool` → the refusal code and why it is right (or the finding it stands for). A refusal
 * not listed here fails the test, and so does an entry that no longer matches a refusal.
 */
const GITLAB_EMPTY_SCHEMA = {
  code: 'invalid_tool',
  reason:
    'installed as npm resolves it today, server-gitlab 2025.4.25 (which does not declare zod) gets zod 4 hoisted beside ' +
    'zod-to-json-schema 3.25, so every inputSchema it sends is {"$schema":"…draft-07…"} alone: no "type":"object", ' +
    'which MCP requires of a tool (docs/decisions/015-malformed-tools-excluded.md); the tool is left out, as it must be',
};

const REVIEWED_REFUSALS: Readonly<Record<string, { readonly code: string; readonly reason: string }>> = {
  '@modelcontextprotocol/server-gitlab create_or_update_file': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab search_repositories': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab create_repository': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab get_file_contents': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab push_files': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab create_issue': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab create_merge_request': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab fork_repository': GITLAB_EMPTY_SCHEMA,
  '@modelcontextprotocol/server-gitlab create_branch': GITLAB_EMPTY_SCHEMA,
};

const REDISTRIBUTABLE = new Set(['MIT', 'Apache-2.0', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD']);

describe('the real-world corpus of MCP tool lists', () => {
  it('holds at least the floor of servers and tools, each fixture well formed and licensed', () => {
    assert.ok(servers.length >= MIN_SERVERS, `${servers.length} servers, want at least ${MIN_SERVERS}`);
    const tools = servers.reduce((n, [, s]) => n + s.result.tools.length, 0);
    assert.ok(tools >= MIN_TOOLS, `${tools} tools, want at least ${MIN_TOOLS}`);
    for (const [file, server] of servers) {
      assert.equal(file, `${server.package.replace(/^@/, '').replace(/[^A-Za-z0-9._-]+/g, '-')}.json`);
      assert.match(server.version, /^\d+\.\d+\.\d+$/, `${file}: an exact version`);
      assert.ok(REDISTRIBUTABLE.has(server.license), `${file}: licence ${server.license}`);
      assert.match(server.gatheredAt, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(Array.isArray(server.result.tools) && server.result.tools.length > 0, `${file}: no tools`);
      assert.ok(licences.includes(`## ${server.package} ${server.version}\n`), `${file}: no LICENSES.md entry`);
    }
  });

  it('admits every tool of every server, or refuses it for a reviewed reason', async () => {
    const engine = createEngine();
    const unexpected: string[] = [];
    const seen = new Set<string>();
    for (const [, server] of servers) {
      const verdicts = await engine.compileTools(server.result.tools);
      assert.equal(verdicts.length, server.result.tools.length);
      for (const verdict of verdicts) {
        const key = `${server.package} ${verdict.name}`;
        const refusal = toolRefusal(verdict);
        const reviewed = REVIEWED_REFUSALS[key];
        if (refusal === undefined) {
          if (reviewed !== undefined) unexpected.push(`${key}: accepted, but reviewed as refused ${reviewed.code}`);
          continue;
        }
        seen.add(key);
        if (reviewed?.code !== refusal.code) unexpected.push(`${key}: refused ${refusal.code}: ${refusal.message}`);
      }
    }
    for (const key of Object.keys(REVIEWED_REFUSALS)) {
      if (!seen.has(key) && !unexpected.some((u) => u.startsWith(`${key}:`))) unexpected.push(`${key}: reviewed, but no such tool`);
    }
    assert.deepEqual(unexpected, []);
  });
});
