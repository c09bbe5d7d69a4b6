// The real corpus: every tool of every MCP server package in test/fixtures/real-world/servers (tools/list results
// as sent, gathered by scripts/gather-corpus.mjs), and larger corpora built from that list for capacity: renamed
// copies that share their schemas, or copies whose schemas are each made distinct by one description.
import { readdirSync, readFileSync } from 'node:fs';
import type { CorpusTool } from './corpus.ts';
import type { CfworkerDraft } from './fixtures.ts';

const serversDir = new URL('../test/fixtures/real-world/servers/', import.meta.url);

interface ServerFixture {
  readonly package: string;
  readonly result: { readonly tools: readonly CorpusTool[] };
}

/** Each server's package name and tools, in file order. */
export function realServers(): { readonly name: string; readonly tools: readonly CorpusTool[] }[] {
  return readdirSync(serversDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const fixture = JSON.parse(readFileSync(new URL(file, serversDir), 'utf8')) as ServerFixture;
      return { name: fixture.package, tools: fixture.result.tools };
    });
}

/**
 * All tools of all servers, each name prefixed with its server's slug (two servers both have `search`), as a host
 * holding every server at once would list them.
 */
export function realCorpus(): CorpusTool[] {
  return realServers().flatMap((server) => {
    const slug = server.name.replace(/^@/, '').replace(/[^a-zA-Z0-9]+/g, '_');
    return server.tools.map((tool) => ({ ...tool, name: `${slug}__${tool.name}` }));
  });
}

/** Appends ` (copy n)` to a schema's own description, so the copy has its own canonical text and fingerprint. */
function distinctCopy(schema: Record<string, unknown>, copy: number): Record<string, unknown> {
  const description = typeof schema.description === 'string' ? `${schema.description} ` : '';
  return { ...schema, description: `${description}(copy ${copy})` };
}

/**
 * `size` tools cycled from `tools`, each renamed `<name>__<copy>`. With `distinct` every copy's input and output
 * schema differ from all others (the realistic shape of 4,096 tools from many servers); without, the copies share
 * the original schema objects (many tools, few schemas).
 */
export function realCopies(tools: readonly CorpusTool[], size: number, distinct: boolean): CorpusTool[] {
  return Array.from({ length: size }, (_, i) => {
    const tool = tools[i % tools.length] as CorpusTool;
    const copy = Math.floor(i / tools.length);
    if (copy === 0) return tool;
    const renamed = { ...tool, name: `${tool.name}__${copy}` };
    if (!distinct) return renamed;
    return {
      ...renamed,
      inputSchema: distinctCopy(tool.inputSchema, copy),
      ...(tool.outputSchema === undefined ? {} : { outputSchema: distinctCopy(tool.outputSchema, copy) }),
    };
  });
}

/** The dialect a schema declares, as raw cfworker names it (no `$schema`: 2020-12, as in the engine). */
export function cfworkerDraft(schema: unknown): CfworkerDraft {
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === 'string' && /draft-0[67]/.test(declared) ? '7' : '2020-12';
}
