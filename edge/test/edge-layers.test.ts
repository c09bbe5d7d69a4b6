// docs/architecture.md#layers for edge/: it imports only the engine, mcp and protocol layers, and nothing Node-only (no nodejs_compat).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const edgeSrc = fileURLToPath(new URL('../src', import.meta.url));
const repoSrc = fileURLToPath(new URL('../../src', import.meta.url));

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] as string);
}

describe('edge layer boundaries', () => {
  const files = readdirSync(edgeSrc, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(edgeSrc, name));

  it('finds the entry', () => {
    assert.ok(files.some((file) => file.endsWith('index.ts')));
  });

  it('reaches into src/ only for the engine, mcp and protocol layers', () => {
    for (const file of files) {
      for (const spec of imports(file).filter((s) => s.startsWith('.'))) {
        const target = join(file, '..', spec);
        if (!target.startsWith(`${repoSrc}/`)) {
          assert.ok(target.startsWith(`${edgeSrc}/`), `${relative(edgeSrc, file)} imports ${spec}`);
          continue;
        }
        const layer = relative(repoSrc, target).split('/')[0];
        assert.ok(['engine', 'mcp', 'protocol'].includes(layer ?? ''), `${relative(edgeSrc, file)} imports ${spec} (layer ${layer})`);
      }
    }
  });

  it('imports no Node built-in, so the Worker needs no nodejs_compat', () => {
    for (const file of files) {
      for (const spec of imports(file)) assert.doesNotMatch(spec, /^node:/, `${relative(edgeSrc, file)} imports ${spec}`);
    }
  });
});
