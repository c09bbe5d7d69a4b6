// docs/architecture.md#rooms (issue #19): every engine and edge file sits in a named room, other layers reach the
// engine through its entries (src/engine/index.ts or a room's index.ts), the wire codec is its own unexported room
// for host and worker, and src/ and edge/src hold no import circle, type-only imports included.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const rooms: Record<string, readonly string[]> = {
  'src/engine': ['core', 'json', 'numbers', 'schema', 'policy', 'patterns', 'work', 'issues', 'forms', 'tools', 'adapters/cfworker'],
  'edge/src': ['http', 'rpc', 'gateway', 'upstream', 'state'],
};
/** Entries and configuration that sit in a layer's own folder, not in a room. */
const stay: readonly string[] = [
  'src/engine/index.ts',
  'src/engine/web-platform.d.ts',
  'src/engine/tsconfig.json',
  'edge/src/index.ts',
  'edge/src/lib.ts',
];

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => `${dir}/${name}`)
    .filter((path) => statSync(join(repo, path)).isFile());
}

function imports(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] as string);
}

/** A relative specifier as a repo path, or undefined for a package. */
function target(file: string, spec: string): string | undefined {
  return spec.startsWith('.') ? relative(repo, resolve(repo, dirname(file), spec)) : undefined;
}

describe('rooms', () => {
  for (const [layer, names] of Object.entries(rooms)) {
    it(`every file in ${layer} is an entry or sits in a room`, () => {
      for (const file of files(layer)) {
        if (stay.includes(file)) continue;
        const room = names.find(
          (name) => file.startsWith(`${layer}/${name}/`) && !file.slice(layer.length + name.length + 2).includes('/'),
        );
        assert.ok(room, `${file} is in no room (${names.join(', ')})`);
      }
    });
  }

  it('tests mirror the layers and rooms they test', () => {
    // Repo-wide checks stay at the top; the edge's workerd/ folder holds the tests that run the real runtime.
    const topLevel = [
      'test/layers.test.ts',
      'test/rooms.test.ts',
      'test/deploy-script.test.ts',
      'test/lockfile.test.ts',
      'edge/test/edge-layers.test.ts',
    ];
    const homes: Record<string, string> = { test: 'src', 'test/engine': 'src/engine', 'edge/test': 'edge/src' };
    for (const base of ['test', 'edge/test']) {
      for (const file of files(base).filter((path) => path.endsWith('.test.ts'))) {
        if (topLevel.includes(file) || file.startsWith('test/consumer/')) continue;
        const folder = dirname(file);
        assert.notEqual(folder, base, `${file} sits in no folder: move it beside the room it tests`);
        const parent = dirname(folder);
        const home = homes[parent] ?? homes[base];
        const name = parent in homes ? folder.slice(parent.length + 1) : folder.slice(base.length + 1);
        // test/scripts/ mirrors the repository's own scripts/ folder (the npm scripts), not a folder of src/.
        // test/docs/ holds the doc-command test (issue 22): it checks README.md and docs/, not a layer.
        const exists =
          name === 'workerd' || folder === 'test/scripts' || folder === 'test/docs' || existsSync(join(repo, home as string, name));
        assert.ok(exists, `${file}: ${folder} mirrors no folder of ${home}`);
      }
    }
  });

  it('other layers import the engine through its entries only', () => {
    const outside = [...files('src'), ...files('edge/src')].filter((f) => f.endsWith('.ts') && !f.startsWith('src/engine/'));
    for (const file of outside) {
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (to === undefined || !to.startsWith('src/engine/')) continue;
        const room = dirname(to).slice('src/engine/'.length);
        const entry = to === 'src/engine/index.ts' || (rooms['src/engine']?.includes(room) && to.endsWith('/index.ts'));
        assert.ok(entry, `${file} imports ${spec}: use src/engine/index.ts or src/engine/<room>/index.ts`);
      }
    }
  });

  it('the wire codec (src/wire) is reached by src/host and src/worker only, through its index.ts, and is not exported', () => {
    for (const file of files('src/wire')) assert.ok(file.endsWith('.ts'), `${file}: src/wire holds sources only`);
    assert.ok(existsSync(join(repo, 'src/wire/index.ts')), 'src/wire/index.ts is the room entry');
    const importers: string[] = [];
    for (const file of [...files('src'), ...files('edge/src')].filter((f) => f.endsWith('.ts') && !f.startsWith('src/wire/'))) {
      for (const spec of imports(file)) {
        const to = target(file, spec);
        if (to === undefined || !to.startsWith('src/wire/')) continue;
        assert.ok(
          file.startsWith('src/host/') || file.startsWith('src/worker/'),
          `${file} imports ${spec}: only host and worker speak the wire`,
        );
        assert.equal(to, 'src/wire/index.ts', `${file} imports ${spec}: use src/wire/index.ts`);
        importers.push(file);
      }
    }
    assert.ok(importers.some((f) => f.startsWith('src/host/')) && importers.some((f) => f.startsWith('src/worker/')), 'both ends use it');
    const exported = JSON.stringify(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).exports);
    assert.doesNotMatch(exported, /\/wire\b/, 'no package.json export reaches src/wire');
  });

  it('src/protocol holds types only (and the refusal codes, a public constant)', () => {
    for (const file of files('src/protocol').filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(repo, file), 'utf8');
      const values = [...text.matchAll(/^export\s+(?:const|let|function|class|enum)\s+(\w+)/gm)].map((match) => match[1]);
      assert.deepEqual(values, file === 'src/protocol/refusal.ts' ? ['refusalCodes'] : [], `${file} exports runtime code`);
    }
  });

  it('no import circle among src/ and edge/src (type-only imports count)', () => {
    const sources = [...files('src'), ...files('edge/src')].filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    const graph = new Map<string, string[]>();
    for (const file of sources) {
      const edges = imports(file)
        .map((spec) => target(file, spec))
        .filter((to): to is string => to !== undefined && existsSync(join(repo, to)) && sources.includes(to));
      graph.set(file, edges);
    }
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') assert.fail(`import circle: ${[...path.slice(path.indexOf(next)), next].join(' → ')}`);
        if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of sources) if (!state.has(file)) visit(file);
  });
});
