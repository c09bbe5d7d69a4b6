// docs/architecture.md#layers: imports point inward only, and the engine is the only place a validator library is imported.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** Layers each layer may import, the engine rooms a layer without the engine may still use, and its packages. */
const rules: Record<string, { layers: string[]; engineRooms?: string[]; packages: RegExp }> = {
  protocol: { layers: ['protocol'], packages: /^$/ },
  // The host–worker wire codec: runtime code over the protocol's types, for the two ends of the lane only.
  wire: { layers: ['wire', 'protocol'], packages: /^$/ },
  engine: { layers: ['engine', 'protocol'], packages: /^(@cfworker\/json-schema|@noble\/hashes\/(sha2|utils)\.js|lossless-json|re2js)$/ },
  // MCP rules every surface shares (list limits, call wording, the lenient list reader): pure like the engine.
  mcp: { layers: ['mcp', 'engine', 'protocol'], packages: /^$/ },
  worker: { layers: ['worker', 'wire', 'engine', 'protocol'], packages: /^(comlink(\/.*)?|node:worker_threads|node:crypto)$/ },
  host: {
    layers: ['host', 'wire', 'mcp', 'protocol', 'engine'],
    packages: /^(comlink(\/.*)?|idb-keyval|lossless-json|@modelcontextprotocol\/sdk\/.*|node:.*)$/,
  },
  // The SDK's client only, for `lint --url` / `--stdio` (src/cli/fetch-tools.ts, loaded lazily): v1, and the v2
  // client for a server that speaks only MCP 2026-07-28.
  cli: {
    layers: ['cli', 'host', 'mcp', 'engine', 'protocol'],
    packages: /^(node:.*|@modelcontextprotocol\/sdk\/(client\/.*|shared\/transport\.js|types\.js)|@modelcontextprotocol\/client)$/,
  },
  // The page reaches the engine through the host, except the JSON helpers (`isJsonObject`) and the number ones (a
  // policy bound's check): pure, no compiler.
  ui: {
    layers: ['ui', 'host', 'mcp', 'protocol'],
    engineRooms: ['json', 'numbers'],
    packages: /^(@modelcontextprotocol\/sdk\/.*|@modelcontextprotocol\/client|comlink|idb-keyval)$/,
  },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] as string);
}

describe('layer boundaries', () => {
  const files = sources(src);

  it('finds the source files', () => {
    assert.ok(files.length > 20);
  });

  for (const [layer, rule] of Object.entries(rules)) {
    it(`src/${layer} imports only what its layer may`, () => {
      for (const file of files.filter((f) => relative(src, f).startsWith(`${layer}/`))) {
        const rel = relative(src, file);
        for (const spec of imports(file)) {
          if (spec.startsWith('.')) {
            const [target, room] = relative(src, join(file, '..', spec)).split('/') as [string, string?];
            const allowed = rule.layers.includes(target) || (target === 'engine' && rule.engineRooms?.includes(room ?? '') === true);
            assert.ok(allowed, `${rel} imports ${spec} (layer ${target})`);
          } else {
            assert.match(spec, rule.packages, `${rel} imports package ${spec}`);
          }
        }
      }
    });
  }

  it('imports @cfworker/json-schema from exactly one engine file', () => {
    const importers = files.filter((file) => imports(file).includes('@cfworker/json-schema')).map((file) => relative(src, file));
    assert.deepEqual(importers, ['engine/adapters/cfworker/cfworker-adapter.ts']);
  });
});
